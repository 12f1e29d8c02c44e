import { defineTool, type ToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { hookCommand, on, readHookLog, startHookSession } from "./fixtures.js";

const answer = (json: unknown) => `cat >/dev/null; printf '%s' '${JSON.stringify(json)}'`;
const decide = (permissionDecision: string, reason: string) =>
	answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason: reason } });
const context = (text: string) => answer({ hookSpecificOutput: { additionalContext: text } });

/** A tool that runs `bash` through `ctx.executeTool`, as an extension's tool would. */
const viaBash: ToolDefinition = defineTool({
	name: "run_twice",
	label: "run_twice",
	description: "Runs a command twice through bash",
	parameters: Type.Object({ command: Type.String() }),
	async execute(_id, params, signal, _onUpdate, ctx) {
		const outputs: string[] = [];
		for (let run = 0; run < 2; run++) {
			const outcome = await ctx!.executeTool("bash", { command: params.command }, signal ? { signal } : {});
			outputs.push(outcome.result.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
		}
		return { content: [{ type: "text", text: outputs.join(" | ") }] };
	},
}) as unknown as ToolDefinition;

describe("hooks in the pipeline", () => {
	it("combine in settings order: deny beats ask beats allow, any block wins, contexts are kept in order", () =>
		withTempDir(async (dir) => {
			const { session } = await startHookSession(
				dir,
				{
					PreToolUse: [
						on("Bash", decide("allow", "fine by me"), context("first context")),
						on("Bash", decide("deny", "not on Fridays"), decide("ask", "unsure"), context("second context")),
					],
				},
				[{ toolCalls: [{ name: "bash", arguments: { command: "echo x" } }] }, { text: "ok" }],
			);
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result?.isError).toBe(true);
			expect(textOf(result!)).toContain("not on Fridays");
			expect(textOf(result!)).not.toContain("fine by me");
			await session.dispose();

			const both = await startHookSession(
				dir,
				{ PreToolUse: [on("Bash", context("first context"), context("second context"))] },
				[{ toolCalls: [{ name: "bash", arguments: { command: "echo y" } }] }, { text: "ok" }],
			);
			await both.session.prompt("go");
			const text = textOf(toolResults(both.session.messages)[0]!);
			expect(text.indexOf("first context")).toBeGreaterThan(-1);
			expect(text.indexOf("second context")).toBeGreaterThan(text.indexOf("first context"));
			await both.session.dispose();
		}));

	it("continue: false stops the agent after the turn and shows the stop reason to the user", () =>
		withTempDir(async (dir) => {
			const halt = answer({ continue: false, stopReason: "Build is broken; stopping." });
			const { session, model, notices } = await startHookSession(dir, { PreToolUse: [on("Bash", halt)] }, [
				{ toolCalls: [{ name: "bash", arguments: { command: "echo x" } }] },
				{ text: "should not be asked" },
			]);
			await session.prompt("go");
			expect(model.calls).toHaveLength(1);
			expect(textOf(toolResults(session.messages)[0]!)).toContain("The session is stopping");
			expect(notices).toEqual(["A hook stopped the session: Build is broken; stopping."]);
			// The next prompt starts afresh.
			await session.dispose();
		}));

	it("fire for nested calls (ctx.executeTool) and codemode calls, naming the parent call", () =>
		withTempDir(async (dir) => {
			const code = 'const a = await tools.bash({ command: "echo from-script" }); return a;';
			const { session } = await startHookSession(
				dir,
				{ PreToolUse: [on("Bash|run_twice|codemode", hookCommand("record.py"), hookCommand("guard_bash.py"))] },
				[
					{ toolCalls: [{ id: "outer", name: "run_twice", arguments: { command: "echo nested" } }] },
					{ toolCalls: [{ id: "script", name: "codemode", arguments: { code } }] },
					{ toolCalls: [{ id: "bad", name: "run_twice", arguments: { command: "rm -rf /tmp/nothing-here" } }] },
					{ text: "ok" },
				],
				{ customTools: [viaBash], tools: ["*", "codemode"] },
			);
			await session.prompt("go");
			const log = await readHookLog(dir);
			const seen = log.map(
				(entry) =>
					`${String(entry.input.tool_name)}:${String(entry.input.tool_use_id)}:${String(entry.input.gantry_parent_tool_use_id ?? "")}`,
			);
			expect(seen).toEqual([
				"run_twice:outer:",
				"Bash:outer/1:outer",
				"Bash:outer/2:outer",
				"codemode:script:",
				"Bash:script/1:script",
				"run_twice:bad:",
				"Bash:bad/1:bad",
				"Bash:bad/2:bad",
			]);
			const [outer, script, bad] = toolResults(session.messages);
			expect(textOf(outer!)).toBe("nested | nested");
			expect(textOf(script!)).toContain("from-script");
			expect(textOf(bad!)).toContain("rm -rf is not allowed in this project");
			await session.dispose();
		}));
});
