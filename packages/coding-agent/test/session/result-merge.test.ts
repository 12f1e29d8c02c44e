import { type AgentToolResult, runToolCall } from "@gantry/agent";
import { createAssistantMessage, createFauxModel } from "@gantry/ai";
import { defineTool, type ToolDefinition, type ToolResultEventResult, wrapToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { withTempDir } from "./helpers.js";

const detailed = defineTool({
	name: "detailed",
	label: "detailed",
	description: "Answers with details and structured content",
	parameters: Type.Object({}),
	async execute(): Promise<AgentToolResult> {
		return { content: [{ type: "text", text: "original" }], details: { kept: true }, structuredContent: { n: 1 } };
	},
}) as unknown as ToolDefinition;

const override: ToolResultEventResult = { content: [{ type: "text", text: "rewritten" }], details: undefined };

/** The final result of one `detailed` call when `override` comes from a `tool_result` handler. */
async function throughToolResult(cwd: string) {
	const model = createFauxModel([{ toolCalls: [{ name: "detailed", arguments: {} }] }, { text: "ok" }]);
	const session = await createAgentSession({
		cwd,
		model,
		noTools: "all",
		customTools: [detailed],
		extensions: [(api) => api.on("tool_result", () => override)],
	});
	let final: AgentToolResult | undefined;
	session.subscribe((event) => {
		if (event.type === "tool_execution_end") final = event.result;
	});
	await session.prompt("go");
	await session.dispose();
	return final;
}

/** The same when `override` comes from a plain `afterToolCall` hook. */
async function throughAfterToolCall() {
	const model = createFauxModel([]);
	const outcome = await runToolCall(
		{ type: "toolCall", id: "call_1", name: "detailed", arguments: {} },
		{
			tools: [wrapToolDefinition(detailed)],
			assistantMessage: createAssistantMessage(model),
			context: { messages: [] },
			afterToolCall: async () => override,
		},
	);
	return outcome.result;
}

describe("one merge rule for result hooks", () => {
	it("treats details: undefined the same in afterToolCall and tool_result: details kept, structured content dropped", () =>
		withTempDir(async (cwd) => {
			const viaExtension = await throughToolResult(cwd);
			const viaHook = await throughAfterToolCall();
			for (const result of [viaExtension, viaHook]) {
				expect(result?.content).toEqual([{ type: "text", text: "rewritten" }]);
				expect(result?.details).toEqual({ kept: true });
				expect(result?.structuredContent).toBeUndefined();
			}
		}));
});
