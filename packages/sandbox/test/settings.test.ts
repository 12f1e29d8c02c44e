import { createMappedWorkspace } from "@gantry/tools/testing";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace, resolveSandboxSettings, SandboxError } from "../src/index.js";

const place = { cwd: "/work/project", home: "/home/user" };

describe("the sandbox settings", () => {
	it("apply Claude Code's defaults: auto-allowed bash, unsandboxed commands allowed; Gantry fails closed", () => {
		const resolved = resolveSandboxSettings({ enabled: true }, place);
		expect(resolved).toMatchObject({
			enabled: true,
			autoAllowBashIfSandboxed: true,
			allowUnsandboxedCommands: true,
			failIfUnavailable: true,
			allowedDomains: [],
			allowWrite: [],
		});
	});

	it("read paths as Claude Code does: //x and /x absolute, ~/x in home, anything else in the working folder", () => {
		const resolved = resolveSandboxSettings(
			{ filesystem: { allowWrite: ["//tmp/build", "/var/cache", "~/.npm", "./out", "dist"] } },
			place,
		);
		expect(resolved.allowWrite).toEqual([
			"/tmp/build",
			"/var/cache",
			"/home/user/.npm",
			"/work/project/out",
			"/work/project/dist",
		]);
	});

	it("say which key is wrong and how to write it; Claude Code's keys Gantry does not use are accepted", () => {
		expect(() => resolveSandboxSettings({ enabeld: true } as never, place)).toThrow(
			/sandbox\.enabeld is not a sandbox setting/,
		);
		expect(() => resolveSandboxSettings({ filesystem: { allowWrite: "dist" } } as never, place)).toThrow(
			"sandbox.filesystem.allowWrite must be a list of non-empty strings",
		);
		expect(() => resolveSandboxSettings({ enabled: "yes" } as never, place)).toThrow(
			"sandbox.enabled must be true or false",
		);
		expect(() => resolveSandboxSettings({ network: { allowedDomains: ["https://example.com/"] } }, place)).toThrow(
			"is not a host name or pattern",
		);
		expect(() =>
			resolveSandboxSettings({ ignoreViolations: {}, enableWeakerNestedSandbox: true } as never, place),
		).not.toThrow();
	});

	it("refuse to wrap a workspace on another host", async () => {
		const mapped = await createMappedWorkspace();
		try {
			const attempt = createSandboxedWorkspace(mapped.workspace, { enabled: true });
			await expect(attempt).rejects.toBeInstanceOf(SandboxError);
			await expect(createSandboxedWorkspace(mapped.workspace, { enabled: true })).rejects.toMatchObject({
				code: "not_local",
			});
		} finally {
			await mapped.cleanup();
		}
	});
});
