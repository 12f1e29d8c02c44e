import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	type AssistantMessage,
	type Context,
	createAssistantMessage,
	createOpenAICompatibleModel,
	emptyUsage,
	getModel,
	type Model,
	stream,
	type Tool,
} from "../../src/index.js";
import { type ScriptedLlmServer, startScriptedLlmServer } from "../../src/testing/index.js";
import { at, closedPortUrl, deltasFor, drain, PIXEL_PNG } from "./helpers.js";

let server: ScriptedLlmServer;
let model: Model;

beforeEach(async () => {
	server = await startScriptedLlmServer();
	model = createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "test-model" });
});
afterEach(async () => {
	await server.close();
});

const hello: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hello?", timestamp: 1 }] };
const request = (context: Context = hello, options: Parameters<typeof stream>[2] = {}) =>
	drain(stream(model, context, { maxRetries: 0, ...options }));

describe("openai-completions provider", () => {
	it("streams text deltas and sends a streaming request with usage", async () => {
		server.enqueue({ text: "Hello! How can I help you today?", chunkSize: 6 });
		const { events, message } = await request();
		expect(events[0].type).toBe("start");
		expect(deltasFor(events, "text_delta", 0).length).toBeGreaterThan(3);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
		expect(message).toMatchObject({
			stopReason: "stop",
			content: [{ type: "text", text: "Hello! How can I help you today?" }],
			api: "openai-completions",
			provider: "openai-compatible",
			model: "test-model",
		});
		expect(server.requests[0].path).toBe("/v1/chat/completions");
		expect(server.requests[0].body).toMatchObject({
			model: "test-model",
			stream: true,
			stream_options: { include_usage: true },
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "Hello?" },
			],
		});
	});

	it("assembles two parallel tool calls whose arguments arrive in chunks", async () => {
		server.enqueue({
			chunkSize: 5,
			toolCalls: [
				{ id: "call_a", name: "read", arguments: { path: "src/index.ts" } },
				{ id: "call_b", name: "grep", arguments: { pattern: "TODO", path: "src" } },
			],
		});
		const { events, message } = await request();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "src/index.ts" } },
			{ type: "toolCall", id: "call_b", name: "grep", arguments: { pattern: "TODO", path: "src" } },
		]);
		expect(deltasFor(events, "toolcall_delta", 0).length).toBeGreaterThan(2);
		expect(deltasFor(events, "toolcall_delta", 1).join("")).toBe('{"pattern":"TODO","path":"src"}');
		const ends = events.filter((event) => event.type === "toolcall_end");
		expect(ends.map((event) => event.type === "toolcall_end" && event.toolCall.id)).toEqual(["call_a", "call_b"]);
	});

	it("reports usage, with cached prompt tokens as cacheRead", async () => {
		server.enqueue({ text: "ok", usage: { input: 100, output: 20, cacheRead: 30 } });
		const { message } = await request();
		expect(message.usage).toMatchObject({ input: 100, output: 20, cacheRead: 30, cacheWrite: 0, totalTokens: 150 });
	});

	it("maps finish_reason length to stopReason length", async () => {
		server.enqueue({ text: "The answer is", finishReason: "length" });
		const { events, message } = await request();
		expect(message.stopReason).toBe("length");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
	});

	it("turns reasoning_content into a thinking block", async () => {
		server.enqueue({ thinking: "The user greets me.", text: "Hi!" });
		const { message } = await request();
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "The user greets me." },
			{ type: "text", text: "Hi!" },
		]);
	});

	it.each([
		[500, "upstream exploded"],
		[429, "Rate limit reached for requests"],
	])("ends an HTTP %i with stopReason error and the server's message", async (status, text) => {
		server.enqueue({ status, message: text });
		const { events, message } = await request();
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ type: "error", reason: "error" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(text);
		expect(message.errorMessage).toContain(String(status));
		expect(server.requests).toHaveLength(1);
	});

	it("retries a 429 when maxRetries allows it", async () => {
		server.enqueue({ status: 429, message: "slow down", headers: { "retry-after-ms": "1" } }, { text: "second try" });
		const { message } = await request(hello, { maxRetries: 1 });
		expect(message.content).toEqual([{ type: "text", text: "second try" }]);
		expect(server.requests).toHaveLength(2);
	});

	it("reports malformed streamed argument JSON as argumentsError without failing the message", async () => {
		server.enqueue({
			toolCalls: [
				{ id: "call_bad", name: "write", arguments: '{"path": "a.txt", "content": "unterminated' },
				{ id: "call_ok", name: "read", arguments: { path: "b.txt" } },
			],
		});
		const { message } = await request();
		expect(message.stopReason).toBe("toolUse");
		const [bad, ok] = message.content;
		expect(bad).toMatchObject({ type: "toolCall", id: "call_bad", name: "write", arguments: {} });
		expect(bad.type === "toolCall" && bad.argumentsError).toMatch(/Invalid JSON in tool arguments/);
		expect(ok).toEqual({ type: "toolCall", id: "call_ok", name: "read", arguments: { path: "b.txt" } });
	});

	it("ends with stopReason aborted when aborted in the middle of a stream, keeping the partial text", async () => {
		const text = "This sentence never finishes because the server stalls.";
		server.enqueue({ text, chunkSize: 4, stallAfterEvents: 4 });
		const controller = new AbortController();
		const events = stream(model, hello, { signal: controller.signal, maxRetries: 0 });
		const types: string[] = [];
		for await (const event of events) {
			types.push(event.type);
			if (event.type === "text_delta") controller.abort();
		}
		const message = await events.result();
		expect(types.at(-1)).toBe("error");
		expect(types).not.toContain("done");
		expect(message.stopReason).toBe("aborted");
		const partial = message.content[0];
		expect(partial.type === "text" && partial.text.length > 0 && text.startsWith(partial.text)).toBe(true);
		expect(message.errorMessage).toBeTruthy();
	});

	it("ends with stopReason aborted when the signal is aborted before the request", async () => {
		const controller = new AbortController();
		controller.abort();
		const { message } = await request(hello, { signal: controller.signal });
		expect(message.stopReason).toBe("aborted");
	});

	it("ends with stopReason error when the endpoint is unreachable", async () => {
		const unreachable = createOpenAICompatibleModel({ baseUrl: `${await closedPortUrl()}/v1`, id: "m" });
		const { message } = await drain(stream(unreachable, hello, { maxRetries: 0 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Connection error/);
	});

	it("ends with a clear message when OpenAI's key is missing", async () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const { message } = await drain(stream(getModel("openai", "gpt-4.1"), hello));
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toMatch(/OPENAI_API_KEY/);
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});
});

describe("openai-completions request", () => {
	const readTool = (strict?: "prefer" | "require"): Tool => ({
		name: "read",
		description: "Read a file",
		parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) }),
		...(strict ? { constrainedSampling: { type: "json_schema" as const, strict } } : {}),
	});

	it("declares strict tools with the strict schema where the provider supports it", async () => {
		server.enqueue({ text: "ok" }, { text: "ok" });
		const openai = createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "gpt-test", provider: "openai" });
		await drain(stream(openai, { ...hello, tools: [readTool("prefer")] }, { apiKey: "sk-test", maxRetries: 0 }));
		expect(at(server.requests[0].body, "tools", 0)).toEqual({
			type: "function",
			function: {
				name: "read",
				description: "Read a file",
				strict: true,
				parameters: {
					type: "object",
					properties: { path: { type: "string" }, limit: { type: ["integer", "null"] } },
					required: ["path", "limit"],
					additionalProperties: false,
				},
			},
		});
		await request({ ...hello, tools: [readTool("prefer")] });
		expect(at(server.requests[1].body, "tools", 0, "function", "strict")).toBeUndefined();
		expect(at(server.requests[1].body, "tools", 0, "function", "parameters", "required")).toEqual(["path"]);
	});

	it('fails the request without sending it when a "require" tool cannot be strict', async () => {
		const { message } = await request({ ...hello, tools: [readTool("require")] });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Tool "read" requires strict constrained sampling/);
		expect(server.requests).toHaveLength(0);
	});

	it("sends images as data URLs and tool-result images in a user message after the tool messages", async () => {
		server.enqueue({ text: "ok" });
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "two calls" },
				{ type: "text", text: "Looking." },
				{ type: "toolCall", id: "call_1", name: "screenshot", arguments: { page: 1 } },
				{ type: "toolCall", id: "call_2", name: "read", arguments: { path: "a.txt" } },
			],
			stopReason: "toolUse",
			usage: emptyUsage(),
			api: "openai-completions",
			provider: "openai-compatible",
			model: "test-model",
			timestamp: 2,
		};
		const context: Context = {
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "What is this?" },
						{ type: "image", data: PIXEL_PNG, mimeType: "image/png" },
					],
					timestamp: 1,
				},
				assistant,
				{
					role: "toolResult",
					toolCallId: "call_1",
					toolName: "screenshot",
					content: [
						{ type: "text", text: "Page 1" },
						{ type: "image", data: PIXEL_PNG, mimeType: "image/png" },
					],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "call_2",
					toolName: "read",
					content: [{ type: "text", text: "hello" }],
					isError: false,
					timestamp: 4,
				},
			],
		};
		await request(context);
		const messages = at(server.requests[0].body, "messages") as unknown[];
		expect(messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "What is this?" },
					{ type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL_PNG}` } },
				],
			},
			{
				role: "assistant",
				content: "Looking.",
				tool_calls: [
					{ id: "call_1", type: "function", function: { name: "screenshot", arguments: '{"page":1}' } },
					{ id: "call_2", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
				],
			},
			{ role: "tool", tool_call_id: "call_1", content: "Page 1" },
			{ role: "tool", tool_call_id: "call_2", content: "hello" },
			{
				role: "user",
				content: [
					{ type: "text", text: expect.stringContaining("screenshot") },
					{ type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL_PNG}` } },
				],
			},
		]);
	});

	it("answers tool calls that have no result and omits images for text-only models", async () => {
		server.enqueue({ text: "ok" });
		const textOnly: Model = { ...model, input: ["text"] };
		const context: Context = {
			messages: [
				{ role: "user", content: [{ type: "image", data: PIXEL_PNG, mimeType: "image/png" }], timestamp: 1 },
				{ ...orphanCall(), timestamp: 2 },
				{ role: "user", content: "go on", timestamp: 3 },
			],
		};
		await drain(stream(textOnly, context, { maxRetries: 0 }));
		const messages = at(server.requests[0].body, "messages") as unknown[];
		expect(messages[0]).toEqual({ role: "user", content: expect.stringContaining("image omitted") });
		expect(messages[2]).toMatchObject({
			role: "tool",
			tool_call_id: "call_9",
			content: expect.stringContaining("No result"),
		});
		expect(messages[3]).toEqual({ role: "user", content: "go on" });
	});

	it("sends maxTokens, temperature and headers", async () => {
		server.enqueue({ text: "ok" });
		await request(hello, { maxTokens: 99, temperature: 0.2, headers: { "x-trace": "abc" }, apiKey: "sk-local" });
		expect(server.requests[0].body).toMatchObject({ max_tokens: 99, temperature: 0.2 });
		expect(server.requests[0].headers).toMatchObject({ "x-trace": "abc", authorization: "Bearer sk-local" });
	});
});

function orphanCall(): AssistantMessage {
	const message = createAssistantMessage(model);
	message.content = [{ type: "toolCall", id: "call_9", name: "read", arguments: { path: "x" } }];
	message.stopReason = "toolUse";
	return message;
}
