import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { isSandboxedWorkspace } from "@gantry/sandbox";
import { createLocalWorkspace } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { textOf, toolResults } from "../session/helpers.js";
import { on } from "./fixtures.js";

describe("hooks and the sandbox", () => {
	it("hooks are the user's commands: they run outside the sandbox the model's commands run in", async () => {
		const root = await realpath(await mkdtemp(join(tmpdir(), "gantry-hooks-sandbox-")));
		const project = join(root, "project");
		await Promise.all(
			[project, join(project, "locked"), join(root, "home"), join(root, "temp")].map((folder) =>
				mkdir(folder, { recursive: true }),
			),
		);
		const session = await createAgentSession({
			workspace: createLocalWorkspace(project, { tempDir: join(root, "temp"), home: join(root, "home") }),
			model: createFauxModel([
				// The path hides in a variable, so the policy's parse cannot see it: the sandbox stops the write.
				{ toolCalls: [{ name: "bash", arguments: { command: 'f=locked/from-model.txt; echo model > "$f"' } }] },
				{ text: "done" },
			]),
			settings: {
				sandbox: { enabled: true },
				permissions: { deny: ["Edit(locked/**)"] },
				hooks: {
					PostToolUseFailure: [on("Bash", `cat >/dev/null; echo hook > "$CLAUDE_PROJECT_DIR/locked/from-hook.txt"`)],
				},
			},
		});
		try {
			expect(isSandboxedWorkspace(session.workspace)).toBe(true);
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result?.isError).toBe(true);
			expect(textOf(result!)).toContain("[sandbox]");
			expect(existsSync(join(project, "locked", "from-model.txt"))).toBe(false);
			expect(await readFile(join(project, "locked", "from-hook.txt"), "utf8")).toBe("hook\n");
		} finally {
			await session.dispose();
			await rm(root, { recursive: true, force: true });
		}
	});
});
