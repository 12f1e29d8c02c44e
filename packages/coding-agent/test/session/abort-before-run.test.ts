import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createLocalWorkspace, type Workspace } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { withTempDir } from "./helpers.js";

/** A local workspace whose git processes wait until `release()`; `gitStarted` resolves when the first one asks. */
function gatedGitWorkspace(cwd: string) {
	const inner = createLocalWorkspace(cwd);
	let release = () => {};
	const gate = new Promise<void>((resolve) => {
		release = resolve;
	});
	let started = () => {};
	const gitStarted = new Promise<void>((resolve) => {
		started = resolve;
	});
	const workspace: Workspace = {
		...inner,
		processes: {
			...inner.processes,
			spawn: async (file, args, options) => {
				if (file === "git") {
					started();
					await gate;
				}
				return inner.processes.spawn(file, args, options);
			},
		},
	};
	return { workspace, release, gitStarted };
}

describe("abort() while a prompt is still before its run", () => {
	it("ends the prompt as one aborted turn: the model is never answered", () =>
		withTempDir(async (dir) => {
			const cwd = join(dir, "project");
			await mkdir(cwd);
			const { workspace, release, gitStarted } = gatedGitWorkspace(cwd);
			const model = createFauxModel([{ text: "this answer must not arrive" }]);
			const session = await createAgentSession({ workspace, home: join(dir, "home"), model, tools: [] });
			try {
				const prompt = session.prompt("hello");
				// The checkpoint before the prompt is under way (its git waits): Esc now.
				await gitStarted;
				session.abort();
				release();
				await prompt;
				const assistants = session.messages.filter((message) => message.role === "assistant");
				expect(assistants).toHaveLength(1);
				expect(assistants[0]).toMatchObject({ stopReason: "aborted" });
				expect(JSON.stringify(session.messages)).not.toContain("this answer must not arrive");
			} finally {
				release();
				await session.dispose();
			}
		}));
});
