import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	type AssistantMessage,
	type Context,
	createOpenAICompatibleModel,
	getModel,
	type ToolResultMessage,
} from "../../src/index.js";
import { at, expectBlocksClosed, HELLO, recordedRequest, useScriptedProvider } from "./helpers.js";
import { FIXTURES, recordedBody } from "./recorded.js";

const deepseek = useScriptedProvider(
	(server) =>
		createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "deepseek-reasoner", provider: "deepseek" }),
	{ apiKey: "k", maxRetries: 0 },
);
const anthropic = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "k", maxRetries: 0 },
);

function resultFor(message: AssistantMessage, text: string): ToolResultMessage {
	const call = message.content.find((block) => block.type === "toolCall");
	if (call?.type !== "toolCall") throw new Error("the recording has no tool call");
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 3,
	};
}

/** Anthropic SSE frames for events given as objects. */
function anthropicSse(events: Record<string, unknown>[]): string {
	return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

describe("defects seen on real streams", () => {
	it("sends DeepSeek's reasoning back in reasoning_content during a tool loop, not in later turns", async () => {
		deepseek.server.enqueue(
			{ raw: recordedBody("deepseek-tool-call.chunks.txt", "openai") },
			{ text: "ok" },
			{ text: "ok" },
		);
		const { message } = await deepseek.request();
		const thinking = message.content.find((block) => block.type === "thinking");
		expect(thinking).toMatchObject({ type: "thinking", reasoningField: "reasoning_content" });
		const loop: Context = { messages: [...HELLO.messages, message, resultFor(message, "sunny")] };
		await deepseek.request(loop);
		const sent = at(recordedRequest(deepseek.server, 1).body, "messages", 1) as Record<string, unknown>;
		expect(sent).toMatchObject({ role: "assistant", tool_calls: [expect.objectContaining({ type: "function" })] });
		expect(sent.reasoning_content).toBe(thinking?.type === "thinking" && thinking.thinking);
		await deepseek.request({ messages: [...loop.messages, { role: "user", content: "And tomorrow?", timestamp: 4 }] });
		expect(at(recordedRequest(deepseek.server, 2).body, "messages", 1, "reasoning_content")).toBeUndefined();
	});

	it("ends a chat-completions refusal with stopReason error carrying the refusal, as the README says", async () => {
		const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
			`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
		deepseek.server.enqueue({
			raw: `${chunk({ role: "assistant", refusal: "" })}${chunk({ refusal: "I can't help " })}${chunk({ refusal: "with that." })}${chunk({}, "stop")}data: [DONE]\n\n`,
		});
		const { events, message } = await deepseek.request();
		expect(message).toMatchObject({
			stopReason: "error",
			errorMessage: "The model refused to answer: I can't help with that.",
		});
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "error" });
	});

	it("keeps Anthropic server-tool blocks and replays them as the API accepted them", async () => {
		anthropic.server.enqueue({ raw: recordedBody("anthropic-tool-search-tool-use.sse", "anthropic") }, { text: "ok" });
		const { message } = await anthropic.request({
			messages: [{ role: "user", content: "What is the current USD to EUR exchange rate?", timestamp: 1 }],
		});
		expect(message.content.map((block) => (block.type === "provider" ? block.kind : block.type))).toEqual([
			"text",
			"server_tool_use",
			"tool_search_tool_result",
			"text",
			"toolCall",
		]);
		await anthropic.request({
			messages: [
				{ role: "user", content: "What is the current USD to EUR exchange rate?", timestamp: 1 },
				message,
				resultFor(message, "1 USD = 0.92 EUR"),
			],
		});
		const reference = JSON.parse(readFileSync(join(FIXTURES, "anthropic-tool-search-final.request.json"), "utf8"));
		const sent = JSON.parse(
			JSON.stringify(at(recordedRequest(anthropic.server, 1).body, "messages")).replaceAll(
				',"cache_control":{"type":"ephemeral"}',
				"",
			),
		);
		expect(sent[1]).toEqual(reference.messages[1]);
		expect(sent[2].content[0]).toMatchObject({
			type: "tool_result",
			tool_use_id: reference.messages[2].content[0].tool_use_id,
		});
	});

	it("keeps web-search calls with their streamed input and their results", async () => {
		anthropic.server.enqueue({ raw: recordedBody("anthropic-web-search-citations.sse", "anthropic") });
		const { events, message } = await anthropic.request();
		const provider = message.content.flatMap((block) => (block.type === "provider" ? [block] : []));
		expect(provider.map((block) => block.kind)).toEqual([
			"server_tool_use",
			"web_search_tool_result",
			"server_tool_use",
			"web_search_tool_result",
		]);
		expect(provider[0]?.data.input).toEqual({ query: expect.any(String) });
		expectBlocksClosed(events);
	});

	it("continues a turn the server paused (pause_turn) into the same message", async () => {
		const usage = { input_tokens: 10, output_tokens: 1 };
		const start = {
			type: "message_start",
			message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage },
		};
		const search = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} };
		const results = { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] };
		anthropic.server.enqueue(
			{
				raw: anthropicSse([
					start,
					{ type: "content_block_start", index: 0, content_block: search },
					{
						type: "content_block_delta",
						index: 0,
						delta: { type: "input_json_delta", partial_json: '{"query":"gantry"}' },
					},
					{ type: "content_block_stop", index: 0 },
					{ type: "content_block_start", index: 1, content_block: results },
					{ type: "content_block_stop", index: 1 },
					{ type: "message_delta", delta: { stop_reason: "pause_turn" }, usage: { output_tokens: 7 } },
					{ type: "message_stop" },
				]),
			},
			{ text: "Gantry is a toolkit.", usage: { input: 20, output: 5 } },
		);
		const { events, message } = await anthropic.request();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([
			{
				type: "provider",
				api: "anthropic-messages",
				kind: "server_tool_use",
				data: { ...search, input: { query: "gantry" } },
			},
			{ type: "provider", api: "anthropic-messages", kind: "web_search_tool_result", data: results },
			{ type: "text", text: "Gantry is a toolkit." },
		]);
		expect(message.usage).toMatchObject({ input: 30, output: 12 });
		const continued = at(recordedRequest(anthropic.server, 1).body, "messages") as unknown[];
		expect(continued.at(-1)).toEqual({
			role: "assistant",
			content: [{ ...search, input: { query: "gantry" } }, results],
		});
		expect(events.filter((event) => event.type === "start")).toHaveLength(1);
		expectBlocksClosed(events);
	});

	it("reports a turn the server keeps pausing after five continuations", async () => {
		const paused = anthropicSse([
			{
				type: "message_start",
				message: {
					id: "m",
					type: "message",
					role: "assistant",
					model: "m",
					content: [],
					stop_reason: null,
					usage: { input_tokens: 1, output_tokens: 1 },
				},
			},
			{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
			{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Searching. " } },
			{ type: "content_block_stop", index: 0 },
			{ type: "message_delta", delta: { stop_reason: "pause_turn" }, usage: { output_tokens: 2 } },
			{ type: "message_stop" },
		]);
		anthropic.server.enqueue(...Array.from({ length: 7 }, () => ({ raw: paused })));
		const { message } = await anthropic.request();
		expect(anthropic.server.requests).toHaveLength(6);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/paused the turn 6 times \(stop_reason: pause_turn\)/);
		expect(message.content).toHaveLength(6);
	});

	it("closes open blocks with their *_end events before an error event", async () => {
		anthropic.server.enqueue({ raw: recordedBody("anthropic-error-midstream.chunks.txt", "anthropic") });
		const { events, message } = await anthropic.request();
		expect(events.slice(-2).map((event) => event.type)).toEqual(["text_end", "error"]);
		expect(message).toMatchObject({
			stopReason: "error",
			errorMessage: "Overloaded",
			content: [{ type: "text", text: "Hello" }],
		});
	});
});
