import { describe, expect, it } from "vitest";
import { getModel, stream } from "../../src/index.js";
import { at, deltasFor, drain, HELLO, recordedRequest, useScriptedProvider } from "./helpers.js";

const scripted = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "ant-test", maxRetries: 0 },
);
const request = scripted.request;

describe("anthropic-messages provider", () => {
	it("streams text and sends the system prompt, max_tokens and the key", async () => {
		scripted.server.enqueue({ text: "Hello! How can I help you today?", chunkSize: 6 });
		const { events, message } = await request();
		expect(deltasFor(events, "text_delta", 0).length).toBeGreaterThan(3);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
		expect(message).toMatchObject({
			stopReason: "stop",
			content: [{ type: "text", text: "Hello! How can I help you today?" }],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-haiku-4-5",
		});
		const recorded = recordedRequest(scripted.server, 0);
		expect(recorded.path).toBe("/v1/messages");
		expect(recorded.headers.authorization).toBe("Bearer ant-test");
		expect(recorded.body).toMatchObject({
			model: "claude-haiku-4-5",
			stream: true,
			max_tokens: scripted.model.maxTokens,
			system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
			messages: [{ role: "user", content: [{ type: "text", text: "Hello?", cache_control: { type: "ephemeral" } }] }],
		});
	});

	it("keeps thinking with its signature, and sends it back on the next turn", async () => {
		scripted.server.enqueue(
			{ thinking: "The user greets me.", thinkingSignature: "sig-abc", text: "Hi!" },
			{ text: "again" },
		);
		const { message } = await request(HELLO, { thinking: { budgetTokens: 2048 } });
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "The user greets me.", signature: "sig-abc" },
			{ type: "text", text: "Hi!" },
		]);
		expect(recordedRequest(scripted.server, 0).body).toMatchObject({
			thinking: { type: "enabled", budget_tokens: 2048 },
		});
		await request({ messages: [...HELLO.messages, message, { role: "user", content: "More?", timestamp: 3 }] });
		expect(at(recordedRequest(scripted.server, 1).body, "messages", 1)).toEqual({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "The user greets me.", signature: "sig-abc" },
				{ type: "text", text: "Hi!" },
			],
		});
	});

	it("assembles two tool_use blocks from input_json_delta chunks", async () => {
		scripted.server.enqueue({
			chunkSize: 5,
			text: "Let me look.",
			toolCalls: [
				{ id: "toolu_a", name: "read", arguments: { path: "src/index.ts" } },
				{ id: "toolu_b", name: "grep", arguments: { pattern: "TODO" } },
			],
		});
		const { events, message } = await request();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "text", text: "Let me look." },
			{ type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "src/index.ts" } },
			{ type: "toolCall", id: "toolu_b", name: "grep", arguments: { pattern: "TODO" } },
		]);
		expect(deltasFor(events, "toolcall_delta", 1).length).toBeGreaterThan(2);
		expect(deltasFor(events, "toolcall_delta", 2).join("")).toBe('{"pattern":"TODO"}');
	});

	it("reports usage including cache reads and writes", async () => {
		scripted.server.enqueue({ text: "ok", usage: { input: 12, output: 34, cacheRead: 500, cacheWrite: 60 } });
		const { message } = await request();
		expect(message.usage).toMatchObject({ input: 12, output: 34, cacheRead: 500, cacheWrite: 60, totalTokens: 606 });
	});

	it("maps max_tokens to stopReason length", async () => {
		scripted.server.enqueue({ text: "The answer is", finishReason: "max_tokens" });
		const { events, message } = await request();
		expect(message.stopReason).toBe("length");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
	});

	it.each([
		[500, "Internal server error, please retry"],
		[429, "Number of request tokens has exceeded your rate limit"],
	])("ends an HTTP %i with stopReason error and the server's message", async (status, text) => {
		scripted.server.enqueue({ status, message: text });
		const { message } = await request();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`${status} ${text} (not retried: maxRetries is 0)`);
		expect(scripted.server.requests).toHaveLength(1);
	});

	it("ends an in-stream error event with stopReason error and its message, keeping the partial text", async () => {
		scripted.server.enqueue({ text: "Partial answer", streamError: "Overloaded" });
		const { message } = await request();
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "Overloaded" });
		expect(message.content).toEqual([{ type: "text", text: "Partial answer" }]);
	});

	it("reports malformed input JSON as argumentsError", async () => {
		scripted.server.enqueue({ toolCalls: [{ id: "toolu_bad", name: "write", arguments: '{"path": "a.txt",' }] });
		const { message } = await request();
		expect(message.stopReason).toBe("toolUse");
		const [first] = message.content;
		expect(first).toMatchObject({ type: "toolCall", id: "toolu_bad", arguments: {} });
		expect(first?.type === "toolCall" && first.argumentsError).toMatch(/Invalid JSON/);
	});

	it("ends with stopReason aborted when aborted in the middle of a stream", async () => {
		const text = "This sentence never finishes because the server stalls.";
		scripted.server.enqueue({ text, chunkSize: 4, stallAfterEvents: 6 });
		const controller = new AbortController();
		const events = stream(scripted.model, HELLO, { apiKey: "k", signal: controller.signal, maxRetries: 0 });
		const types: string[] = [];
		for await (const event of events) {
			types.push(event.type);
			if (event.type === "text_delta") controller.abort();
		}
		const message = await events.result();
		expect(types.at(-1)).toBe("error");
		expect(message.stopReason).toBe("aborted");
		const partial = message.content[0];
		expect(partial?.type === "text" && partial.text.length > 0 && text.startsWith(partial.text)).toBe(true);
	});

	it("ends with a clear message when Anthropic's key is missing", async () => {
		const saved = process.env.ANTHROPIC_API_KEY;
		delete process.env.ANTHROPIC_API_KEY;
		try {
			const { message } = await drain(stream(getModel("anthropic", "claude-haiku-4-5"), HELLO));
			expect(message).toMatchObject({ stopReason: "error", errorMessage: expect.stringMatching(/ANTHROPIC_API_KEY/) });
		} finally {
			if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
		}
	});
});
