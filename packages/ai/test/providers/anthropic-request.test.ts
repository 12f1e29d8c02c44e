import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	type AssistantMessage,
	type Context,
	createAssistantMessage,
	getModel,
	type Model,
	stream,
	type ToolResultMessage,
} from "../../src/index.js";
import { at, drain, HELLO, PIXEL_PNG, recordedRequest, useScriptedProvider } from "./helpers.js";

const scripted = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "ant-test", maxRetries: 0 },
);
const request = scripted.request;

function toolResult(id: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId: id, toolName: "screenshot", content, isError, timestamp: 3 };
}

describe("anthropic-messages request", () => {
	it("merges consecutive tool results into one user message with images and is_error", async () => {
		scripted.server.enqueue({ text: "ok" });
		const assistant: AssistantMessage = {
			...createAssistantMessage(scripted.model),
			stopReason: "toolUse",
			content: [
				{ type: "toolCall", id: "toolu_1", name: "screenshot", arguments: { page: 1 } },
				{ type: "toolCall", id: "call.2|x", name: "screenshot", arguments: { page: 2 } },
			],
		};
		const context: Context = {
			tools: [{ name: "screenshot", description: "Take one", parameters: Type.Object({ page: Type.Integer() }) }],
			messages: [
				{ role: "user", content: "Show me.", timestamp: 1 },
				assistant,
				toolResult("toolu_1", [
					{ type: "text", text: "Page 1" },
					{ type: "image", data: PIXEL_PNG, mimeType: "image/png" },
				]),
				toolResult("call.2|x", [{ type: "text", text: "no such page" }], true),
			],
		};
		await request(context);
		const body = recordedRequest(scripted.server, 0).body;
		expect(at(body, "tools")).toEqual([
			{
				name: "screenshot",
				description: "Take one",
				input_schema: { type: "object", properties: { page: { type: "integer" } }, required: ["page"] },
				cache_control: { type: "ephemeral" },
			},
		]);
		expect(at(body, "messages")).toEqual([
			{ role: "user", content: [{ type: "text", text: "Show me." }] },
			{
				role: "assistant",
				content: [
					{ type: "tool_use", id: "toolu_1", name: "screenshot", input: { page: 1 } },
					{ type: "tool_use", id: "call_2_x", name: "screenshot", input: { page: 2 } },
				],
			},
			{
				role: "user",
				content: [
					{
						type: "tool_result",
						tool_use_id: "toolu_1",
						content: [
							{ type: "text", text: "Page 1" },
							{ type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL_PNG } },
						],
					},
					{
						type: "tool_result",
						tool_use_id: "call_2_x",
						content: [{ type: "text", text: "no such page" }],
						is_error: true,
						cache_control: { type: "ephemeral" },
					},
				],
			},
		]);
	});

	it("declares strict tools when the model supports strict mode", async () => {
		scripted.server.enqueue({ text: "ok" });
		const strictModel: Model = { ...scripted.model, compat: { supportsStrictMode: true } };
		const tools = [
			{
				name: "read",
				description: "Read",
				parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) }),
				constrainedSampling: { type: "json_schema" as const, strict: "prefer" as const },
			},
		];
		await drain(stream(strictModel, { ...HELLO, tools }, { apiKey: "k", maxRetries: 0 }));
		expect(at(recordedRequest(scripted.server, 0).body, "tools", 0)).toMatchObject({
			name: "read",
			strict: true,
			input_schema: { required: ["path", "limit"], additionalProperties: false },
		});
	});
});
