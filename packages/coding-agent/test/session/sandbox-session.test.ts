import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { isSandboxedWorkspace } from "@gantry/sandbox";
import { createLocalWorkspace } from "@gantry/tools";
import { createMappedWorkspace } from "@gantry/tools/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { textOf, toolResults } from "./helpers.js";

let root: string;
let project: string;

beforeEach(async () => {
	root = await realpath(await mkdtemp(join(tmpdir(), "gantry-sandbox-session-")));
	project = join(root, "project");
	await Promise.all([project, join(root, "home"), join(root, "temp")].map((folder) => mkdir(folder)));
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

function localWorkspace() {
	return createLocalWorkspace(project, { tempDir: join(root, "temp"), home: join(root, "home") });
}

describe("settings.sandbox in a session", () => {
	it("wraps the session's local workspace, and Read/Edit deny rules join the sandbox's lists for commands", async () => {
		await mkdir(join(project, "secret"));
		await writeFile(join(project, "secret", "token.txt"), "TOP SECRET");
		await mkdir(join(project, "locked"));
		const model = createFauxModel([
			{
				toolCalls: [
					// The paths hide in variables, so the policy's parse cannot see them: the sandbox holds the rules.
					{ id: "r", name: "bash", arguments: { command: 'f=secret/token.txt; cat "$f"; echo done-reading' } },
					{ id: "w", name: "bash", arguments: { command: 'f=locked/file.txt; echo changed > "$f"' } },
				],
			},
			{ text: "done" },
		]);
		const session = await createAgentSession({
			workspace: localWorkspace(),
			model,
			settings: {
				sandbox: { enabled: true },
				permissions: { deny: ["Read(secret/**)", "edit(locked/**)"] },
			},
		});
		try {
			expect(isSandboxedWorkspace(session.workspace)).toBe(true);
			await session.prompt("go");
			const [read, write] = toolResults(session.messages);
			expect(textOf(read)).not.toContain("TOP SECRET");
			expect(textOf(read)).toContain("done-reading");
			expect(write?.isError).toBe(true);
			expect(textOf(write)).toContain("[sandbox] The sandbox stopped writing");
			expect(textOf(write)).toContain("the deny rule edit(locked/**)");
			expect(existsSync(join(project, "locked", "file.txt"))).toBe(false);
		} finally {
			await session.dispose();
		}
		// The sandbox's own temp folders (and the session's inside it) went with the session.
		expect(readdirSync(join(root, "temp"))).toEqual([]);
	});

	it("refuses the sandbox over a workspace on another host, with what to do", async () => {
		const mapped = await createMappedWorkspace();
		try {
			await expect(
				createAgentSession({
					workspace: mapped.workspace,
					model: createFauxModel([{ text: "x" }]),
					settings: { sandbox: { enabled: true } },
				}),
			).rejects.toThrow(/contains commands on this machine only.*turn the sandbox off for this session/);
		} finally {
			await mapped.cleanup();
		}
	});
});
