import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type Context, createOpenAICompatibleModel, getModel, type Tool } from "../../src/index.js";
import { at, deltasFor, expectBlocksClosed, HELLO, recordedRequest, useScriptedProvider } from "./helpers.js";

const GRAMMAR = 'start: "*** Begin Patch" LF "*** End Patch" LF?\n%import common.LF\n';
const PATCH = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";

const applyPatch: Tool = {
	name: "apply_patch",
	description: "Edit files with a patch.",
	parameters: Type.Object({ input: Type.String({ description: "The patch." }) }),
	constrainedSampling: { type: "grammar", syntax: "lark", definition: GRAMMAR },
};
const read: Tool = { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) };
const CONTEXT: Context = { ...HELLO, tools: [read, applyPatch] };

const scripted = useScriptedProvider(
	(server) => ({ ...getModel("openai", "gpt-5-mini"), baseUrl: server.responsesBaseUrl }),
	{ apiKey: "sk-test", maxRetries: 0 },
);
const proxy = useScriptedProvider(
	(server) => createOpenAICompatibleModel({ baseUrl: server.responsesBaseUrl, id: "proxied", api: "openai-responses" }),
	{ apiKey: "sk-test", maxRetries: 0 },
);

describe("openai-responses: freeform (custom) tools with a grammar", () => {
	it("declares a grammar tool as a custom tool with its Lark grammar, and the others as functions", async () => {
		scripted.server.enqueue({ text: "ok" });
		await scripted.request(CONTEXT, { toolChoice: { name: "apply_patch" } });
		const body = recordedRequest(scripted.server, 0).body;
		expect(at(body, "tools")).toEqual([
			{
				type: "function",
				name: "read",
				description: "Read a file",
				parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
				strict: false,
			},
			{
				type: "custom",
				name: "apply_patch",
				description: "Edit files with a patch.",
				format: { type: "grammar", syntax: "lark", definition: GRAMMAR },
			},
		]);
		expect(body.tool_choice).toEqual({ type: "custom", name: "apply_patch" });
	});

	it("turns a streamed custom_tool_call into a tool call with arguments { input }, and sends it back as one", async () => {
		scripted.server.enqueue({
			chunkSize: 7,
			toolCalls: [
				{ id: "call_patch", name: "apply_patch", arguments: PATCH, custom: true },
				{ id: "call_read", name: "read", arguments: { path: "a.txt" } },
			],
		});
		const { events, message } = await scripted.request(CONTEXT);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_patch", name: "apply_patch", arguments: { input: PATCH } },
			{ type: "toolCall", id: "call_read", name: "read", arguments: { path: "a.txt" } },
		]);
		expect(deltasFor(events, "toolcall_delta", 0).join("")).toBe(PATCH);
		expect(deltasFor(events, "toolcall_delta", 0).length).toBeGreaterThan(3);
		expectBlocksClosed(events);

		scripted.server.enqueue({ text: "Done." });
		await scripted.request({
			...CONTEXT,
			messages: [
				...CONTEXT.messages,
				message,
				{
					role: "toolResult",
					toolCallId: "call_patch",
					toolName: "apply_patch",
					content: [{ type: "text", text: "Success." }],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "call_read",
					toolName: "read",
					content: [{ type: "text", text: "hi" }],
					isError: false,
					timestamp: 4,
				},
			],
		});
		expect(at(recordedRequest(scripted.server, 1).body, "input")).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Hello?" }] },
			{ type: "custom_tool_call", call_id: "call_patch", name: "apply_patch", input: PATCH },
			{ type: "function_call", call_id: "call_read", name: "read", arguments: '{"path":"a.txt"}' },
			{ type: "custom_tool_call_output", call_id: "call_patch", output: "Success." },
			{ type: "function_call_output", call_id: "call_read", output: "hi" },
		]);
	});

	it("declares it as a function with one string on an endpoint without freeform tools", async () => {
		proxy.server.enqueue({ toolCalls: [{ id: "call_1", name: "apply_patch", arguments: { input: PATCH } }] });
		const { message } = await proxy.request(CONTEXT);
		expect(at(recordedRequest(proxy.server, 0).body, "tools", 1)).toEqual({
			type: "function",
			name: "apply_patch",
			description: "Edit files with a patch.",
			parameters: {
				type: "object",
				properties: { input: { type: "string", description: "The patch." } },
				required: ["input"],
			},
			strict: false,
		});
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_1", name: "apply_patch", arguments: { input: PATCH } },
		]);
	});
});

describe("openai-responses: reasoning asked for on any model", () => {
	it("asks a custom endpoint for encrypted reasoning when reasoning is asked for, and sends it back next turn", async () => {
		proxy.server.enqueue({ thinking: "Thinking it over.", thinkingSignature: "enc-proxy", text: "Hi." });
		const first = await proxy.request(HELLO, { reasoning: "low" });
		expect(recordedRequest(proxy.server, 0).body).toMatchObject({
			include: ["reasoning.encrypted_content"],
			reasoning: { effort: "low", summary: "auto" },
		});
		proxy.server.enqueue({ text: "Again." });
		await proxy.request(
			{ ...HELLO, messages: [...HELLO.messages, first.message, { role: "user", content: "More?", timestamp: 5 }] },
			{ reasoning: "low" },
		);
		expect(at(recordedRequest(proxy.server, 1).body, "input", 1)).toEqual({
			type: "reasoning",
			summary: [{ type: "summary_text", text: "Thinking it over." }],
			encrypted_content: "enc-proxy",
		});
	});

	it("asks nothing of a model whose catalogue entry says it does not reason, nor without the option", async () => {
		proxy.server.enqueue({ text: "a" }, { text: "b" });
		proxy.model.reasoning = false;
		await proxy.request(HELLO, { reasoning: "high" });
		delete proxy.model.reasoning;
		await proxy.request(HELLO);
		for (const recorded of proxy.server.requests) {
			expect(recorded.body.include).toBeUndefined();
			expect(recorded.body.reasoning).toBeUndefined();
		}
	});
});
