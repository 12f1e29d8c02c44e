import { existsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import type { Extension } from "@gantry/extensions";
import { createLocalWorkspace } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { toolResults, withTempDir } from "./helpers.js";

/** Living processes whose command line holds `token` (Linux). */
async function processesWith(token: string): Promise<number[]> {
	const found: number[] = [];
	for (const entry of await readdir("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		const commandLine = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
		const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
		const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
		if (commandLine.includes(token) && state !== "Z" && state !== "") found.push(Number(entry));
	}
	return found;
}

describe("a session on a Workspace", () => {
	it("takes its cwd, ctx.cwd and temp folder from the workspace", () =>
		withTempDir(async (root) => {
			const project = join(root, "project");
			const temp = join(root, "temp");
			await mkdir(project);
			await mkdir(temp);
			const seen: string[] = [];
			const recorder: Extension = (api) => {
				api.on("tool_call", (_event, ctx) => {
					seen.push(ctx.cwd);
					return undefined;
				});
			};
			const model = createFauxModel([
				{ toolCalls: [{ id: "b", name: "bash", arguments: { command: "pwd" } }] },
				{ text: "done" },
			]);
			const session = await createAgentSession({
				workspace: createLocalWorkspace(project, { tempDir: temp }),
				model,
				extensions: [recorder],
			});
			expect(session.workspace.cwd).toBe(project);
			expect(session.systemPrompt).toContain(`Current working directory: ${project}`);
			expect(session.tempDir.startsWith(join(temp, "gantry-session-"))).toBe(true);
			expect(existsSync(session.tempDir)).toBe(true);
			await session.prompt("where am I?");
			expect(seen).toEqual([project]);
			const [result] = toolResults(session.messages);
			expect(result?.content).toEqual([{ type: "text", text: project }]);
			await session.dispose();
			expect(existsSync(session.tempDir)).toBe(false);
			expect(existsSync(temp)).toBe(true);
		}));

	it("says what is wrong when neither cwd nor workspace is given", async () => {
		await expect(createAgentSession({ model: createFauxModel([]) })).rejects.toThrow(/`cwd` must be a folder path/);
	});

	it.skipIf(process.platform !== "linux")(
		"a daemon a command started (setsid) ends with its call; dispose() kills a command still running",
		() =>
			withTempDir(async (cwd) => {
				const daemon = `300.${String(Math.random()).slice(2, 10)}`;
				const running = `301.${String(Math.random()).slice(2, 10)}`;
				const model = createFauxModel([
					{
						toolCalls: [
							{
								id: "b",
								name: "bash",
								arguments: { command: `setsid sh -c '(sleep ${daemon} > /dev/null 2>&1 &)'; echo started` },
							},
						],
					},
					{ text: "done" },
					{ toolCalls: [{ id: "c", name: "bash", arguments: { command: `sleep ${running}` } }] },
					{ text: "stopped" },
				]);
				const session = await createAgentSession({ cwd, model });
				try {
					await session.prompt("start a daemon");
					expect(toolResults(session.messages)[0]?.content).toEqual([{ type: "text", text: "started" }]);
					expect(await processesWith(daemon)).toEqual([]);
					const second = session.prompt("run something long").catch(() => undefined);
					for (let tries = 0; tries < 250 && (await processesWith(running)).length === 0; tries++) {
						await new Promise((resolve) => setTimeout(resolve, 20));
					}
					expect(await processesWith(running)).toHaveLength(1);
					await session.dispose();
					expect(await processesWith(running)).toEqual([]);
					await second;
				} finally {
					for (const pid of [...(await processesWith(daemon)), ...(await processesWith(running))]) {
						process.kill(pid, "SIGKILL");
					}
				}
			}),
	);
});
