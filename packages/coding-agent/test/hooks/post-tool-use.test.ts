import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookLabel } from "../../src/hooks/hook-output.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { hookCommand, on, readHookLog, startHookSession } from "./fixtures.js";

describe("PostToolUse and PostToolUseFailure hooks", () => {
	it("decision block feeds the reason back to the model; the tool_response has Claude Code's fields", () =>
		withTempDir(async (dir) => {
			const { session } = await startHookSession(
				dir,
				{ PostToolUse: [on("Write|Edit", hookCommand("lint_feedback.py"), hookCommand("record.py"))] },
				[{ toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "clean\ndirty  \n" } }] }, { text: "ok" }],
			);
			await session.prompt("write it");
			const [result] = toolResults(session.messages);
			expect(result?.isError).toBe(false);
			expect(textOf(result!)).toContain(
				`Feedback from the PostToolUse hook \`${hookLabel(hookCommand("lint_feedback.py"))}\`:`,
			);
			expect(textOf(result!)).toContain(`${join(dir, "a.txt")} has trailing spaces on line(s) 2.`);
			expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("clean\ndirty  \n");
			const [entry] = await readHookLog(dir);
			expect(entry?.input).toMatchObject({
				hook_event_name: "PostToolUse",
				tool_name: "Write",
				tool_input: { file_path: join(dir, "a.txt"), content: "clean\ndirty  \n" },
				tool_response: { filePath: join(dir, "a.txt"), success: true, created: true },
			});
			await session.dispose();
		}));

	it("exit 2's stderr and additionalContext reach the model; a failed call fires PostToolUseFailure instead", () =>
		withTempDir(async (dir) => {
			const complain = `cat >/dev/null; echo "remember to run the linter" >&2; exit 2`;
			const note = `cat >/dev/null; printf '%s' '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "Failures are logged to ci.log."}}'`;
			const { session } = await startHookSession(
				dir,
				{
					PostToolUse: [on("Bash", complain)],
					PostToolUseFailure: [on("Bash", note, hookCommand("record.py"))],
				},
				[
					{ toolCalls: [{ name: "bash", arguments: { command: "echo fine" } }] },
					{ toolCalls: [{ name: "bash", arguments: { command: "echo broken >&2; exit 3" } }] },
					{ text: "ok" },
				],
			);
			await session.prompt("go");
			const [fine, broken] = toolResults(session.messages);
			expect(textOf(fine!)).toContain("remember to run the linter");
			expect(textOf(broken!)).not.toContain("remember to run the linter");
			expect(broken?.isError).toBe(true);
			expect(textOf(broken!)).toContain("Failures are logged to ci.log.");
			const log = await readHookLog(dir);
			expect(log).toHaveLength(1);
			expect(log[0]?.input).toMatchObject({
				hook_event_name: "PostToolUseFailure",
				tool_name: "Bash",
				is_interrupt: false,
			});
			expect(String(log[0]?.input.error)).toContain("broken");
			await session.dispose();
		}));

	it("a matcher on Edit sees every edit (one replacement is Edit, several are MultiEdit)", () =>
		withTempDir(async (dir) => {
			const { session } = await startHookSession(dir, { PostToolUse: [on("Edit", hookCommand("record.py"))] }, [
				{ toolCalls: [{ name: "write", arguments: { path: "f.txt", content: "one two three\n" } }] },
				{ toolCalls: [{ name: "edit", arguments: { path: "f.txt", edits: [{ oldText: "one", newText: "1" }] } }] },
				{
					toolCalls: [
						{
							name: "edit",
							arguments: {
								path: "f.txt",
								edits: [
									{ oldText: "two", newText: "2" },
									{ oldText: "three", newText: "3" },
								],
							},
						},
					],
				},
				{ text: "ok" },
			]);
			await session.prompt("go");
			const log = await readHookLog(dir);
			expect(log.map((entry) => entry.input.tool_name)).toEqual(["Edit", "MultiEdit"]);
			expect(log[0]?.input.tool_input).toEqual({ file_path: join(dir, "f.txt"), old_string: "one", new_string: "1" });
			expect(log[1]?.input.tool_input).toEqual({
				file_path: join(dir, "f.txt"),
				edits: [
					{ old_string: "two", new_string: "2" },
					{ old_string: "three", new_string: "3" },
				],
			});
			expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("1 2 3\n");
			await session.dispose();
		}));
});
