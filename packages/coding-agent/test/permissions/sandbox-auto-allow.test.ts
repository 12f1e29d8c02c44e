import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createSandboxedWorkspace, type SandboxSettings } from "@gantry/sandbox";
import { createLocalWorkspace } from "@gantry/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { textOf, toolResults } from "../session/helpers.js";

let root: string;

beforeEach(async () => {
	root = await realpath(await mkdtemp(join(tmpdir(), "gantry-sandbox-policy-")));
	await Promise.all(["project", "home", "temp"].map((name) => mkdir(join(root, name))));
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

/** Runs `calls` (bash inputs) in one session on a sandboxed workspace, with the policy and no UI. */
async function runBash(
	settings: SandboxSettings,
	calls: Record<string, unknown>[],
	permissions: { allow?: string[]; deny?: string[] } = {},
) {
	const inner = createLocalWorkspace(join(root, "project"), { tempDir: join(root, "temp"), home: join(root, "home") });
	const workspace = await createSandboxedWorkspace(inner, { enabled: true, ...settings });
	const model = createFauxModel([
		{ toolCalls: calls.map((input, index) => ({ id: `b${index}`, name: "bash", arguments: input })) },
		{ text: "done" },
	]);
	const session = await createAgentSession({
		workspace,
		model,
		extensions: [createPermissionPolicy({ permissions })],
	});
	try {
		await session.prompt("go");
		return toolResults(session.messages).map((result) => ({ isError: result.isError, text: textOf(result) }));
	} finally {
		await session.dispose();
	}
}

describe("autoAllowBashIfSandboxed", () => {
	it("runs a sandboxed bash call without a question (no UI needed); deny rules still block", async () => {
		const [echo, denied] = await runBash({}, [{ command: "echo inside" }, { command: "rm -f x" }], {
			deny: ["bash(rm:*)"],
		});
		expect(echo).toEqual({ isError: false, text: "inside" });
		expect(denied?.isError).toBe(true);
		expect(denied?.text).toContain("denied by the deny rule bash(rm:*)");
	});

	it("asks as usual for an excluded command and for a call that asks to leave the sandbox", async () => {
		const [excluded, leaving] = await runBash({ excludedCommands: ["docker:*"] }, [
			{ command: "docker ps" },
			{ command: "touch out", dangerouslyDisableSandbox: true },
		]);
		expect(excluded?.isError).toBe(true);
		expect(excluded?.text).toContain("there is no one to approve it");
		expect(leaving?.isError).toBe(true);
		expect(leaving?.text).toContain("there is no one to approve it");
	});

	it("asks as usual when autoAllowBashIfSandboxed is false, or when the sandbox is not active", async () => {
		// `touch`, not `echo`: a read-only command runs without a question anyway.
		const [asked] = await runBash({ autoAllowBashIfSandboxed: false }, [{ command: "touch inside" }]);
		expect(asked?.isError).toBe(true);
		expect(asked?.text).toContain("there is no one to approve it");
		const [inactive] = await runBash({ enabled: false }, [{ command: "touch inside" }]);
		expect(inactive?.isError).toBe(true);
		expect(inactive?.text).toContain("there is no one to approve it");
	});
});
