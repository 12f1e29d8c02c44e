import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	type AssistantMessage,
	type Context,
	createAssistantMessage,
	createOpenAICompatibleModel,
	emptyUsage,
	type Model,
	stream,
	type Tool,
} from "../../src/index.js";
import { at, drain, HELLO, PIXEL_PNG, recordedRequest, useScriptedProvider } from "./helpers.js";

const scripted = useScriptedProvider(
	(server) => createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "test-model" }),
	{ maxRetries: 0 },
);
const request = scripted.request;

describe("openai-completions request", () => {
	const readTool = (strict?: "prefer" | "require"): Tool => ({
		name: "read",
		description: "Read a file",
		parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) }),
		...(strict ? { constrainedSampling: { type: "json_schema" as const, strict } } : {}),
	});

	it("declares strict tools with the strict schema where the provider supports it", async () => {
		scripted.server.enqueue({ text: "ok" }, { text: "ok" });
		const openai = createOpenAICompatibleModel({
			baseUrl: scripted.server.openaiBaseUrl,
			id: "gpt-test",
			provider: "openai",
		});
		await drain(stream(openai, { ...HELLO, tools: [readTool("prefer")] }, { apiKey: "sk-test", maxRetries: 0 }));
		expect(at(recordedRequest(scripted.server, 0).body, "tools", 0)).toEqual({
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
		await request({ ...HELLO, tools: [readTool("prefer")] });
		const second = recordedRequest(scripted.server, 1).body;
		expect(at(second, "tools", 0, "function", "strict")).toBeUndefined();
		expect(at(second, "tools", 0, "function", "parameters", "required")).toEqual(["path"]);
	});

	it('fails the request without sending it when a "require" tool cannot be strict', async () => {
		const { message } = await request({ ...HELLO, tools: [readTool("require")] });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Tool "read" requires strict constrained sampling/);
		expect(scripted.server.requests).toHaveLength(0);
	});

	it("sends images as data URLs and tool-result images in a user message after the tool messages", async () => {
		scripted.server.enqueue({ text: "ok" });
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
		const messages = at(recordedRequest(scripted.server, 0).body, "messages") as unknown[];
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
		scripted.server.enqueue({ text: "ok" });
		const textOnly: Model = { ...scripted.model, input: ["text"] };
		const context: Context = {
			messages: [
				{ role: "user", content: [{ type: "image", data: PIXEL_PNG, mimeType: "image/png" }], timestamp: 1 },
				{ ...orphanCall(), timestamp: 2 },
				{ role: "user", content: "go on", timestamp: 3 },
			],
		};
		await drain(stream(textOnly, context, { maxRetries: 0 }));
		const messages = at(recordedRequest(scripted.server, 0).body, "messages") as unknown[];
		expect(messages[0]).toEqual({ role: "user", content: expect.stringContaining("image omitted") });
		expect(messages[2]).toMatchObject({
			role: "tool",
			tool_call_id: "call_9",
			content: expect.stringContaining("No result"),
		});
		expect(messages[3]).toEqual({ role: "user", content: "go on" });
	});

	it("sends maxTokens, temperature and headers", async () => {
		scripted.server.enqueue({ text: "ok" });
		await request(HELLO, { maxTokens: 99, temperature: 0.2, headers: { "x-trace": "abc" }, apiKey: "sk-local" });
		const recorded = recordedRequest(scripted.server, 0);
		expect(recorded.body).toMatchObject({ max_tokens: 99, temperature: 0.2 });
		expect(recorded.headers).toMatchObject({ "x-trace": "abc", authorization: "Bearer sk-local" });
	});

	it("sends max_completion_tokens to OpenAI itself, whose reasoning models reject max_tokens", async () => {
		scripted.server.enqueue({ text: "ok" });
		const openai = createOpenAICompatibleModel({
			baseUrl: scripted.server.openaiBaseUrl,
			id: "o4-mini",
			provider: "openai",
		});
		await drain(stream(openai, HELLO, { maxTokens: 50, apiKey: "sk", maxRetries: 0 }));
		expect(recordedRequest(scripted.server, 0).body.max_completion_tokens).toBe(50);
		expect(recordedRequest(scripted.server, 0).body).not.toHaveProperty("max_tokens");
	});
});

function orphanCall(): AssistantMessage {
	const message = createAssistantMessage(scripted.model);
	message.content = [{ type: "toolCall", id: "call_9", name: "read", arguments: { path: "x" } }];
	message.stopReason = "toolUse";
	return message;
}
