import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookLabel } from "../../src/hooks/hook-output.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { hookCommand, on, readHookLog, startHookSession } from "./fixtures.js";

/** A hook that answers with this JSON, whatever it is asked. */
const answer = (json: unknown) => `cat >/dev/null; printf '%s' '${JSON.stringify(json)}'`;

describe("PreToolUse updatedInput", () => {
	it("is mapped back to Gantry's fields (ms → s) before the call runs; the transcript keeps the model's call", () =>
		withTempDir(async (dir) => {
			const { session } = await startHookSession(
				dir,
				{
					PreToolUse: [on("Bash", hookCommand("quiet_tests.sh"))],
					PostToolUse: [on("Bash", hookCommand("record.py"))],
				},
				[{ toolCalls: [{ name: "bash", arguments: { command: "npm test" } }] }, { text: "ok" }],
			);
			await session.prompt("test it");
			const [ran] = await readHookLog(dir);
			expect(ran?.input.gantry_tool_input).toEqual({ command: "echo quiet tests", timeout: 5 });
			expect(ran?.input.tool_input).toEqual({ command: "echo quiet tests", timeout: 5000 });
			const [result] = toolResults(session.messages);
			expect(result?.isError).toBe(false);
			expect(textOf(result!)).toContain("quiet tests");
			expect(textOf(result!)).toContain(
				`Context from the PreToolUse hook \`${hookLabel(hookCommand("quiet_tests.sh"))}\`:\nTests run quietly in this project.`,
			);
			const assistant = session.messages.find((message) => (message as { role: string }).role === "assistant");
			expect(JSON.stringify(assistant)).toContain('"command":"npm test"');
			await session.dispose();
		}));

	it("maps Edit's file_path/old_string/new_string back onto Gantry's edit", () =>
		withTempDir(async (dir) => {
			await writeFile(join(dir, "a.txt"), "alpha\n");
			await writeFile(join(dir, "b.txt"), "beta\n");
			const redirect = answer({
				hookSpecificOutput: {
					hookEventName: "PreToolUse",
					permissionDecision: "allow",
					updatedInput: { file_path: join(dir, "b.txt"), old_string: "beta", new_string: "BETA" },
				},
			});
			const { session } = await startHookSession(dir, { PreToolUse: [on("Edit", redirect)] }, [
				{ toolCalls: [{ name: "read", arguments: { path: "b.txt" } }] },
				{
					toolCalls: [{ name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] } }],
				},
				{ text: "ok" },
			]);
			await session.prompt("edit");
			expect(toolResults(session.messages).map((result) => result.isError)).toEqual([false, false]);
			expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
			expect(await readFile(join(dir, "b.txt"), "utf8")).toBe("BETA\n");
			await session.dispose();
		}));

	it("blocks the call with a clear reason when the new input does not fit the tool or asks what Gantry cannot do", () =>
		withTempDir(async (dir) => {
			const wrongType = answer({ hookSpecificOutput: { updatedInput: { cmd: "echo typo" } } });
			const background = answer({
				hookSpecificOutput: { updatedInput: { command: "sleep 9", run_in_background: true } },
			});
			const { session } = await startHookSession(
				dir,
				{
					PreToolUse: [
						on("Bash", wrongType),
						on(
							"Edit",
							answer({
								hookSpecificOutput: {
									updatedInput: { file_path: "x", old_string: "a", new_string: "b", replace_all: true },
								},
							}),
						),
					],
				},
				[
					{
						toolCalls: [
							{ name: "bash", arguments: { command: "echo one" } },
							{ name: "edit", arguments: { path: "x", edits: [{ oldText: "a", newText: "b" }] } },
						],
					},
					{ text: "ok" },
				],
			);
			await session.prompt("go");
			const [bash, edit] = toolResults(session.messages);
			expect(bash?.isError).toBe(true);
			expect(textOf(bash!)).toContain("changed the bash call's input so that it cannot run");
			expect(textOf(bash!)).toContain("command");
			expect(edit?.isError).toBe(true);
			expect(textOf(edit!)).toContain("replace_all is not supported");
			await session.dispose();

			const second = await startHookSession(dir, { PreToolUse: [on("Bash", background)] }, [
				{ toolCalls: [{ name: "bash", arguments: { command: "echo two" } }] },
				{ text: "ok" },
			]);
			await second.session.prompt("go");
			expect(textOf(toolResults(second.session.messages)[0]!)).toContain("Gantry's bash has no run_in_background");
			await second.session.dispose();
		}));
});
