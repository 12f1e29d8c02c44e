import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedLlmServer, startScriptedLlmServer } from "../../src/testing/index.js";

let server: ScriptedLlmServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
	if (!server) throw new Error("no server");
	return fetch(`${server.url}${path}`, {
		method: "POST",
		headers: { "content-type": "application/json", ...headers },
		body: JSON.stringify(body),
	});
}

/** The `data:` payloads of an SSE body, parsed (except `[DONE]`), with their `event:` names. */
function parseSse(text: string): { event: string | undefined; data: string }[] {
	return text
		.split("\n\n")
		.filter((frame) => frame.trim() !== "")
		.map((frame) => {
			const lines = frame.split("\n");
			const event = lines.find((line) => line.startsWith("event: "))?.slice(7);
			const data = lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "";
			return { event, data };
		});
}

describe("startScriptedLlmServer", () => {
	it("speaks OpenAI chat-completions SSE and records the request", async () => {
		server = await startScriptedLlmServer([
			{
				text: "Hi there",
				chunkSize: 4,
				toolCalls: [{ name: "read", arguments: { path: "a" } }],
				usage: { input: 5, output: 2 },
			},
		]);
		const response = await post(
			"/v1/chat/completions",
			{ model: "m", stream: true, stream_options: { include_usage: true }, messages: [] },
			{ authorization: "Bearer k" },
		);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toBe("text/event-stream");
		const frames = parseSse(await response.text());
		expect(frames.every((frame) => frame.event === undefined)).toBe(true);
		expect(frames.at(-1)?.data).toBe("[DONE]");
		const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.data));
		expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.model === "m")).toBe(true);
		const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
		expect(text).toBe("Hi there");
		const opening = chunks.find((chunk) => chunk.choices[0]?.delta?.tool_calls?.[0]?.id);
		expect(opening.choices[0].delta.tool_calls[0]).toEqual({
			index: 0,
			id: "call_1",
			type: "function",
			function: { name: "read", arguments: "" },
		});
		expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
		expect(chunks.at(-1)).toMatchObject({
			choices: [],
			usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 0 } },
		});
		expect(server.requests).toEqual([
			{
				format: "openai",
				method: "POST",
				path: "/v1/chat/completions",
				headers: expect.objectContaining({ authorization: "Bearer k" }),
				body: { model: "m", stream: true, stream_options: { include_usage: true }, messages: [] },
			},
		]);
	});

	it("sends the usage chunk only when the request asks for it", async () => {
		server = await startScriptedLlmServer([{ text: "x" }]);
		const frames = parseSse(await (await post("/v1/chat/completions", { model: "m", messages: [] })).text());
		const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.data));
		expect(chunks.some((chunk) => "usage" in chunk)).toBe(false);
	});

	it("speaks Anthropic Messages SSE, translating stop reasons", async () => {
		server = await startScriptedLlmServer([
			{ thinking: "hmm", text: "Hi", toolCalls: [{ name: "read", arguments: "{}" }], finishReason: "length" },
		]);
		const frames = parseSse(await (await post("/v1/messages", { model: "claude", messages: [] })).text());
		expect(frames.map((frame) => frame.event)).toEqual([
			"message_start",
			"ping",
			...["content_block_start", "content_block_delta", "content_block_delta", "content_block_stop"],
			...["content_block_start", "content_block_delta", "content_block_stop"],
			...["content_block_start", "content_block_delta", "content_block_stop"],
			"message_delta",
			"message_stop",
		]);
		const data = frames.map((frame) => JSON.parse(frame.data));
		expect(data.map((entry) => entry.type)).toEqual(frames.map((frame) => frame.event));
		expect(data[0].message).toMatchObject({ role: "assistant", model: "claude", content: [] });
		expect(data[4].delta).toEqual({ type: "signature_delta", signature: "sig-1" });
		expect(data[9].content_block).toEqual({ type: "tool_use", id: "toolu_1", name: "read", input: {} });
		expect(data.at(-2).delta.stop_reason).toBe("max_tokens");
	});

	it("answers scripted HTTP errors with the provider's error body and headers", async () => {
		server = await startScriptedLlmServer([
			{ status: 429, message: "slow down", headers: { "retry-after": "7" } },
			{ status: 500, message: "boom" },
		]);
		const openai = await post("/v1/chat/completions", { messages: [] });
		expect(openai.status).toBe(429);
		expect(openai.headers.get("retry-after")).toBe("7");
		expect(await openai.json()).toEqual({
			error: { message: "slow down", type: "rate_limit_error", param: null, code: null },
		});
		const anthropic = await post("/v1/messages", { messages: [] });
		expect(await anthropic.json()).toEqual({ type: "error", error: { type: "api_error", message: "boom" } });
		expect(server.requests).toHaveLength(2);
	});

	it("computes responses from the request and reports when the script runs out", async () => {
		server = await startScriptedLlmServer([(request) => ({ text: `model was ${String(request.body.model)}` })]);
		const frames = parseSse(await (await post("/v1/chat/completions", { model: "x", messages: [] })).text());
		const text = frames
			.slice(0, -1)
			.map((frame) => JSON.parse(frame.data).choices[0]?.delta?.content ?? "")
			.join("");
		expect(text).toBe("model was x");
		expect(server.remaining()).toBe(0);
		const exhausted = await post("/v1/chat/completions", { messages: [] });
		expect(exhausted.status).toBe(500);
		expect(JSON.stringify(await exhausted.json())).toContain("no more responses");
		server.enqueue({ text: "refilled" });
		expect(server.remaining()).toBe(1);
	});

	it("answers unknown routes with 404 without consuming the script", async () => {
		server = await startScriptedLlmServer([{ text: "x" }]);
		expect((await post("/v1/embeddings", {})).status).toBe(404);
		expect(server.remaining()).toBe(1);
		expect(server.requests).toHaveLength(0);
	});

	it("stalls a stream mid-way until close() cuts it", async () => {
		server = await startScriptedLlmServer([{ text: "abcdefghijklmnop", chunkSize: 2, stallAfterEvents: 2 }]);
		const response = await post("/v1/chat/completions", { messages: [] });
		const reader = response.body?.getReader();
		if (!reader) throw new Error("no body");
		const received: string[] = [];
		const reading = (async () => {
			const decoder = new TextDecoder();
			try {
				for (;;) {
					const { value, done } = await reader.read();
					if (done) return "ended";
					received.push(decoder.decode(value));
				}
			} catch {
				return "cut";
			}
		})();
		while (!received.join("").includes('"ab"')) await new Promise((resolve) => setTimeout(resolve, 5));
		await server.close();
		expect(await reading).toBe("cut");
		expect(received.join("")).not.toContain('"cd"');
		expect(received.join("")).not.toContain("[DONE]");
	});
});
