import { completeUsage } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { eventsOfType, makeTool, runLoop, text, toolResults } from "./helpers.js";

describe("tool result messages", () => {
	it("carry the API's fields; structuredContent stays on the tool_execution_end result only", async () => {
		const usage = completeUsage({ input: 7, output: 3 });
		const search = makeTool("search", async () => ({
			content: [{ type: "text", text: "3 hits" }],
			details: { query: "x" },
			structuredContent: { hits: 3 },
			usage,
			nestedCalls: { calls: [{ id: "call_1/1", name: "read", status: "ok" }], complete: true },
		}));
		const { events, messages, model } = await runLoop(
			[{ toolCalls: [{ id: "s1", name: "search", arguments: {} }] }, { text: "ok" }],
			[search],
		);
		const [message] = toolResults(messages);
		if (message === undefined) throw new Error("expected a tool result, found none");
		expect(Object.keys(message).sort()).toEqual(
			[
				"content",
				"details",
				"durationMs",
				"isError",
				"nestedCalls",
				"role",
				"timestamp",
				"toolCallId",
				"toolName",
				"usage",
			].sort(),
		);
		expect(message).toMatchObject({
			role: "toolResult",
			toolCallId: "s1",
			toolName: "search",
			content: [{ type: "text", text: "3 hits" }],
			details: { query: "x" },
			isError: false,
			usage,
		});
		expect(message.timestamp).toBeTypeOf("number");
		expect(eventsOfType(events, "tool_execution_end")[0]?.result.structuredContent).toEqual({ hits: 3 });
		const [, next] = model.calls;
		if (next === undefined) throw new Error("expected a second request, found none");
		expect(JSON.stringify(next.messages)).not.toContain('hits":3');
	});

	it("have no usage when the result had none, and no durationMs when the tool never ran", async () => {
		const plain = makeTool("plain", async () => text("ok"));
		const { messages } = await runLoop(
			[
				{
					toolCalls: [
						{ name: "plain", arguments: {} },
						{ name: "missing", arguments: {} },
					],
				},
				{ text: "ok" },
			],
			[plain],
		);
		const [ran, missing] = toolResults(messages);
		if (ran === undefined || missing === undefined) throw new Error("expected two tool results");
		expect("usage" in ran).toBe(false);
		expect(ran.durationMs).toBeTypeOf("number");
		expect("durationMs" in missing).toBe(false);
	});
});
