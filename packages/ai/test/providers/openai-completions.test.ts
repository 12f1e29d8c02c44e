import { describe, expect, it } from "vitest";
import { createOpenAICompatibleModel, getModel, stream } from "../../src/index.js";
import { closedPortUrl, deltasFor, drain, HELLO, recordedRequest, useScriptedProvider } from "./helpers.js";

const scripted = useScriptedProvider(
	(server) => createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "test-model" }),
	{ maxRetries: 0 },
);
const request = scripted.request;

describe("openai-completions provider", () => {
	it("streams text deltas and sends a streaming request with usage", async () => {
		scripted.server.enqueue({ text: "Hello! How can I help you today?", chunkSize: 6 });
		const { events, message } = await request();
		expect(events[0]?.type).toBe("start");
		expect(deltasFor(events, "text_delta", 0).length).toBeGreaterThan(3);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
		expect(message).toMatchObject({
			stopReason: "stop",
			content: [{ type: "text", text: "Hello! How can I help you today?" }],
			api: "openai-completions",
			provider: "openai-compatible",
			model: "test-model",
		});
		expect(recordedRequest(scripted.server, 0).path).toBe("/v1/chat/completions");
		expect(recordedRequest(scripted.server, 0).body).toMatchObject({
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
		scripted.server.enqueue({
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
		scripted.server.enqueue({ text: "ok", usage: { input: 100, output: 20, cacheRead: 30 } });
		const { message } = await request();
		expect(message.usage).toMatchObject({ input: 100, output: 20, cacheRead: 30, cacheWrite: 0, totalTokens: 150 });
	});

	it("maps finish_reason length to stopReason length", async () => {
		scripted.server.enqueue({ text: "The answer is", finishReason: "length" });
		const { events, message } = await request();
		expect(message.stopReason).toBe("length");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
	});

	it("turns reasoning_content into a thinking block", async () => {
		scripted.server.enqueue({ thinking: "The user greets me.", text: "Hi!" });
		const { message } = await request();
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "The user greets me.", reasoningField: "reasoning_content" },
			{ type: "text", text: "Hi!" },
		]);
	});

	it.each([
		[500, "upstream exploded"],
		[429, "Rate limit reached for requests"],
	])("ends an HTTP %i with stopReason error and the server's message", async (status, text) => {
		scripted.server.enqueue({ status, message: text });
		const { events, message } = await request();
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ type: "error", reason: "error" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(text);
		expect(message.errorMessage).toContain(String(status));
		expect(scripted.server.requests).toHaveLength(1);
	});

	it("ends an error sent inside the stream with stopReason error and its message", async () => {
		scripted.server.enqueue({
			text: "Partial answer",
			streamError: "The server had an error while processing your request",
		});
		const { message } = await request();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("The server had an error while processing your request");
		expect(message.content).toEqual([{ type: "text", text: "Partial answer" }]);
	});

	it("retries a 429 when maxRetries allows it", async () => {
		scripted.server.enqueue(
			{ status: 429, message: "slow down", headers: { "retry-after-ms": "1" } },
			{ text: "second try" },
		);
		const { message } = await request(HELLO, { maxRetries: 1 });
		expect(message.content).toEqual([{ type: "text", text: "second try" }]);
		expect(scripted.server.requests).toHaveLength(2);
	});

	it("reports malformed streamed argument JSON as argumentsError without failing the message", async () => {
		scripted.server.enqueue({
			toolCalls: [
				{ id: "call_bad", name: "write", arguments: '{"path": "a.txt", "content": "unterminated' },
				{ id: "call_ok", name: "read", arguments: { path: "b.txt" } },
			],
		});
		const { message } = await request();
		expect(message.stopReason).toBe("toolUse");
		const [bad, ok] = message.content;
		expect(bad).toMatchObject({ type: "toolCall", id: "call_bad", name: "write", arguments: {} });
		expect(bad?.type === "toolCall" && bad.argumentsError).toMatch(/Invalid JSON in tool arguments/);
		expect(ok).toEqual({ type: "toolCall", id: "call_ok", name: "read", arguments: { path: "b.txt" } });
	});

	it("ends with stopReason aborted when aborted in the middle of a stream, keeping the partial text", async () => {
		const text = "This sentence never finishes because the server stalls.";
		scripted.server.enqueue({ text, chunkSize: 4, stallAfterEvents: 4 });
		const controller = new AbortController();
		const events = stream(scripted.model, HELLO, { signal: controller.signal, maxRetries: 0 });
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
		expect(partial?.type === "text" && partial.text.length > 0 && text.startsWith(partial.text)).toBe(true);
		expect(message.errorMessage).toBeTruthy();
	});

	it("ends with stopReason aborted when the signal is aborted before the request", async () => {
		const controller = new AbortController();
		controller.abort();
		const { message } = await request(HELLO, { signal: controller.signal });
		expect(message.stopReason).toBe("aborted");
	});

	it("ends with stopReason error when the endpoint is unreachable", async () => {
		const unreachable = createOpenAICompatibleModel({ baseUrl: `${await closedPortUrl()}/v1`, id: "m" });
		const { message } = await drain(stream(unreachable, HELLO, { maxRetries: 0 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Connection error/);
	});

	it("ends with a clear message when OpenAI's key is missing", async () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const { message } = await drain(stream(getModel("openai", "gpt-4.1"), HELLO));
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toMatch(/OPENAI_API_KEY/);
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});
});
