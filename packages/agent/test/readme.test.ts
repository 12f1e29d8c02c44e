// The README's quick start, run as written (keep the two in sync).
import { createFauxModel } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import { expect, it } from "vitest";
import { type AgentEvent, type AgentTool, agentLoop } from "../src/index.js";

it("runs the README quick start", async () => {
	const addParameters = Type.Object({ a: Type.Number(), b: Type.Number() });
	const add: AgentTool<typeof addParameters> = {
		name: "add",
		label: "Add",
		description: "Adds two numbers",
		parameters: addParameters,
		async execute(_toolCallId, { a, b }) {
			return { content: [{ type: "text", text: String(a + b) }], details: { a, b } };
		},
	};

	const model = createFauxModel([
		{ toolCalls: [{ name: "add", arguments: { a: 2, b: "40" } }] },
		{ text: "2 + 40 = 42" },
	]);

	const events = agentLoop(
		[{ role: "user", content: "What is 2 + 40?", timestamp: Date.now() }],
		{ systemPrompt: "You are a calculator.", messages: [], tools: [add] },
		{ model },
	);
	const ends: AgentEvent[] = [];
	for await (const event of events) {
		if (event.type === "tool_execution_end") ends.push(event);
	}
	const messages = await events.result();
	expect(ends).toMatchObject([{ toolName: "add", result: { content: [{ type: "text", text: "42" }] } }]);
	expect(messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "2 + 40 = 42" }] });
});
