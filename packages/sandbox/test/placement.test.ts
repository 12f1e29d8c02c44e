import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxedWorkspace } from "../src/index.js";
import { bash, makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

let place: Place;
let workspace: SandboxedWorkspace | undefined;
let savedPath: string | undefined;

beforeEach(async () => {
	place = await makePlace();
	savedPath = process.env.PATH;
});

afterEach(async () => {
	process.env.PATH = savedPath;
	await workspace?.close();
	workspace = undefined;
	await removePlace(place);
});

describe("where a command runs", () => {
	it("runs a command sandbox.excludedCommands lists outside the sandbox, and says so", async () => {
		workspace = await sandboxed(place, { excludedCommands: ["touch", "docker:*", "npm run *deploy*"] });
		const target = join(place.outside, "made-outside");
		expect(workspace.placeCommand(`touch ${target}`)).toEqual({
			sandboxed: false,
			reason: "sandbox.excludedCommands lists touch",
		});
		expect(workspace.placeCommand("echo a && FOO=1 /usr/bin/docker ps").sandboxed).toBe(false);
		expect(workspace.placeCommand("npm run prod-deploy-now").sandboxed).toBe(false);
		expect(workspace.placeCommand("echo touch").sandboxed).toBe(true);
		expect(workspace.placeCommand("dockerd").sandboxed).toBe(true);
		const result = await bash(workspace, `touch ${target} && echo ok`);
		expect(result.text).toBe("ok");
		expect(existsSync(target)).toBe(true);
	});

	it("leaves the sandbox for a call that asks (dangerouslyDisableSandbox) only when allowUnsandboxedCommands allows it", async () => {
		const target = join(place.outside, "asked-out");
		workspace = await sandboxed(place);
		expect(workspace.placeCommand("touch x", { unsandboxed: true }).sandboxed).toBe(false);
		const allowed = await bash(workspace, `echo out > ${target}`, { dangerouslyDisableSandbox: true });
		expect(allowed.exitCode).toBe(0);
		expect(readFileSync(target, "utf8")).toBe("out\n");
		await workspace.close();

		workspace = await sandboxed(place, { allowUnsandboxedCommands: false });
		expect(workspace.allowUnsandboxedCommands).toBe(false);
		expect(workspace.placeCommand("touch x", { unsandboxed: true }).sandboxed).toBe(true);
		const refused = await bash(workspace, `echo again > ${target}`, { dangerouslyDisableSandbox: true });
		expect(refused.exitCode).not.toBe(0);
		expect(readFileSync(target, "utf8")).toBe("out\n");
	});

	it("refuses every command, naming the reason, when bubblewrap is not on PATH; failIfUnavailable: false runs them bare", async () => {
		const bin = join(place.root, "bin-without-bwrap");
		mkdirSync(bin);
		process.env.PATH = `${bin}:/nonexistent`;
		workspace = await sandboxed(place);
		expect(workspace.sandbox.active).toBe(false);
		expect(workspace.sandbox.reason).toContain("bubblewrap (bwrap) is not on PATH");
		expect(workspace.placeCommand("echo hi").sandboxed).toBe(false);
		process.env.PATH = savedPath;
		await expect(bash(workspace, "echo should-not-run")).rejects.toThrow(
			/The OS sandbox is not available \(bubblewrap \(bwrap\) is not on PATH.*sandbox\.failIfUnavailable/,
		);
		await workspace.close();

		process.env.PATH = `${bin}:/nonexistent`;
		workspace = await sandboxed(place, { failIfUnavailable: false });
		process.env.PATH = savedPath;
		expect(workspace.sandbox.active).toBe(false);
		expect((await bash(workspace, "echo ran unsandboxed")).text).toBe("ran unsandboxed");
	});

	it("is not active, and runs commands as usual, when sandbox.enabled is not set", async () => {
		const { createSandboxedWorkspace } = await import("../src/index.js");
		const { localWorkspace } = await import("./helpers.js");
		workspace = await createSandboxedWorkspace(localWorkspace(place), {});
		expect(workspace.sandbox).toEqual({ active: false, reason: "sandbox.enabled is not set" });
		expect((await bash(workspace, "echo plain")).text).toBe("plain");
	});
});
