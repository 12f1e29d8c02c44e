import { describe, expect, it } from "vitest";
import { createOpenAICompatibleModel, emptyUsage, getModel, stream } from "../../src/index.js";
import {
	at,
	deltasFor,
	drain,
	expectBlocksClosed,
	HELLO,
	PIXEL_PNG,
	recordedRequest,
	useScriptedProvider,
} from "./helpers.js";

const scripted = useScriptedProvider(
	(server) => ({ ...getModel("openai", "gpt-5-mini"), baseUrl: server.responsesBaseUrl }),
	{ apiKey: "sk-test", maxRetries: 0 },
);
const request = scripted.request;

describe("openai-responses provider (scripted)", () => {
	it("streams reasoning summaries as thinking, text, and parallel function calls with streamed arguments", async () => {
		scripted.server.enqueue({
			chunkSize: 5,
			thinking: "Two files to read.",
			thinkingSignature: "enc-abc",
			text: "Reading both.",
			toolCalls: [
				{ id: "call_a", name: "read", arguments: { path: "a.txt" } },
				{ id: "call_b", name: "read", arguments: { path: "b.txt" } },
			],
			usage: { input: 40, output: 30, cacheRead: 60 },
		});
		const { events, message } = await request();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{
				type: "thinking",
				thinking: "Two files to read.",
				signature: JSON.stringify({
					type: "reasoning",
					summary: [{ type: "summary_text", text: "Two files to read." }],
					encrypted_content: "enc-abc",
				}),
			},
			{ type: "text", text: "Reading both." },
			{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
			{ type: "toolCall", id: "call_b", name: "read", arguments: { path: "b.txt" } },
		]);
		expect(deltasFor(events, "thinking_delta", 0).length).toBeGreaterThan(2);
		expect(deltasFor(events, "toolcall_delta", 3).join("")).toBe('{"path":"b.txt"}');
		expect(message.usage).toMatchObject({ input: 40, output: 30, cacheRead: 60, totalTokens: 130 });
		expect(message.usage.cost.total).toBeGreaterThan(0);
		expectBlocksClosed(events);
	});

	it("sends tool results as function_call_output and their images in a user message", async () => {
		scripted.server.enqueue({ text: "A pixel." });
		await request({
			messages: [
				...HELLO.messages,
				{
					role: "assistant",
					content: [{ type: "toolCall", id: "call_1", name: "screenshot", arguments: {} }],
					stopReason: "toolUse",
					usage: emptyUsage(),
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude",
					timestamp: 2,
				},
				{
					role: "toolResult",
					toolCallId: "call_1",
					toolName: "screenshot",
					content: [{ type: "image", data: PIXEL_PNG, mimeType: "image/png" }],
					isError: false,
					timestamp: 3,
				},
			],
		});
		expect(at(recordedRequest(scripted.server, 0).body, "input")).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Hello?" }] },
			{ type: "function_call", call_id: "call_1", name: "screenshot", arguments: "{}" },
			{ type: "function_call_output", call_id: "call_1", output: "(see the attached image)" },
			{
				role: "user",
				content: [
					{ type: "input_text", text: "Image returned by the screenshot tool call call_1:" },
					{ type: "input_image", detail: "auto", image_url: `data:image/png;base64,${PIXEL_PNG}` },
				],
			},
		]);
	});

	it("ends response.incomplete as length and a streamed error as error", async () => {
		scripted.server.enqueue(
			{ text: "The answer is", finishReason: "length" },
			{ text: "Half", streamError: "Server overloaded" },
		);
		expect((await request()).message.stopReason).toBe("length");
		const { events, message } = await request();
		expect(message).toMatchObject({ stopReason: "error", content: [{ type: "text", text: "Half" }] });
		expect(message.errorMessage).toContain("Server overloaded");
		expectBlocksClosed(events);
	});

	it("does not ask a non-reasoning Responses model for encrypted reasoning", async () => {
		const model = createOpenAICompatibleModel({
			api: "openai-responses",
			baseUrl: scripted.server.responsesBaseUrl,
			id: "gpt-4o",
			provider: "openai",
			reasoning: false,
		});
		scripted.server.enqueue({ text: "ok" });
		await drain(stream(model, HELLO, { apiKey: "k", reasoning: "high" }));
		const body = recordedRequest(scripted.server, 0).body;
		expect(body.include).toBeUndefined();
		expect(body.reasoning).toBeUndefined();
	});

	it("ends a refusal with stopReason error carrying the refusal", async () => {
		const frame = (data: Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
		const item = { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] };
		scripted.server.enqueue({
			raw: [
				frame({ type: "response.created", response: { id: "r", status: "in_progress", output: [] } }),
				frame({ type: "response.output_item.added", output_index: 0, item }),
				frame({
					type: "response.refusal.delta",
					output_index: 0,
					item_id: "msg_1",
					content_index: 0,
					delta: "I can't ",
				}),
				frame({
					type: "response.refusal.delta",
					output_index: 0,
					item_id: "msg_1",
					content_index: 0,
					delta: "do that.",
				}),
				frame({ type: "response.output_item.done", output_index: 0, item: { ...item, status: "completed" } }),
				frame({ type: "response.completed", response: { id: "r", status: "completed", output: [] } }),
			].join(""),
		});
		const { message } = await request();
		expect(message).toMatchObject({
			stopReason: "error",
			errorMessage: "The model refused to answer: I can't do that.",
		});
	});
});
