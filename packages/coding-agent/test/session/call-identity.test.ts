import { createFauxModel } from "@gantry/ai";
import { defineTool, type ToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type AgentSessionEvent, createAgentSession } from "../../src/index.js";
import { echoTool, toolResults, withTempDir } from "./helpers.js";

/** A tool that makes one nested `echo` call and answers with the nested call's id. */
const caller = defineTool({
	name: "caller",
	label: "caller",
	description: "Calls echo once",
	parameters: Type.Object({ text: Type.String() }),
	async execute(_id, params, signal, _onUpdate, ctx) {
		const outcome = await ctx!.executeTool("echo", { text: params.text }, { signal });
		return { content: [{ type: "text", text: outcome.toolCall.id }] };
	},
}) as unknown as ToolDefinition;

describe("call identity", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		it(`keeps model ids A and A/1 apart when both make nested calls (${toolExecution})`, () =>
			withTempDir(async (cwd) => {
				const model = createFauxModel([
					{
						toolCalls: [
							{ id: "A", name: "caller", arguments: { text: "from A" } },
							{ id: "A/1", name: "caller", arguments: { text: "from A/1" } },
						],
					},
					{ text: "done" },
				]);
				const session = await createAgentSession({
					cwd,
					model,
					noTools: "all",
					toolExecution,
					customTools: [caller, echoTool("echo").definition],
				});
				const events: AgentSessionEvent[] = [];
				session.subscribe((event) => void events.push(event));
				await session.prompt("go");
				const [a, a1] = toolResults(session.messages);
				expect([a?.toolCallId, a1?.toolCallId]).toEqual(["A", "A/1"]);
				expect(a?.nestedCalls?.calls.map((call) => call.name)).toEqual(["echo"]);
				expect(a1?.nestedCalls?.calls.map((call) => call.name)).toEqual(["echo"]);
				const starts = events.filter((event) => event.type === "tool_execution_start");
				const ids = starts.map((event) => event.toolCallId);
				expect(ids).toHaveLength(4);
				expect(new Set(ids).size).toBe(4);
				// nested ids keep the <caller>/<n> form on the wire
				const nested = starts.filter((event) => event.parentToolCallId !== undefined);
				for (const event of nested) expect(event.toolCallId.startsWith(`${event.parentToolCallId}/`)).toBe(true);
				expect(nested.map((event) => event.parentToolCallId).sort()).toEqual(["A", "A/1"]);
				await session.dispose();
			}));
	}
});
