import { describe, expect, it } from "vitest";
import { type AssistantMessage, createOpenAICompatibleModel, type ToolResultMessage } from "../../src/index.js";
import { at, expectBlocksClosed, HELLO, useScriptedProvider } from "./helpers.js";
import { recordedBody, recordedExpectations } from "./recorded.js";

const scripted = useScriptedProvider(
	(server) =>
		createOpenAICompatibleModel({
			api: "openai-responses",
			baseUrl: server.responsesBaseUrl,
			id: "gpt-5",
			provider: "openai",
			reasoning: true,
		}),
	{ apiKey: "sk-test", maxRetries: 0 },
);

/** The encrypted content of each reasoning item kept on the message. */
function encryptedReasoning(message: AssistantMessage): string[] {
	return message.content.flatMap((block) =>
		block.type === "thinking" && block.signature ? [JSON.parse(block.signature).encrypted_content as string] : [],
	);
}

describe("openai-responses over recorded Responses API streams", () => {
	for (const [name, entry] of Object.entries(recordedExpectations("openai-responses"))) {
		it(`${name} replays to what the reference accumulator derived`, async () => {
			const segment = entry.segment ?? undefined;
			scripted.server.enqueue({ raw: recordedBody(`openai-responses/${entry.file}`, "responses", segment) });
			const { events, message } = await scripted.request();
			const expected = entry.expected;
			const texts = message.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
			expect(texts.join("")).toBe(expected.text);
			const parts = message.content.flatMap((block) =>
				block.type === "thinking" && !block.redacted ? [block.thinking] : [],
			);
			expect(parts).toEqual(expected.thinkingParts);
			expect(encryptedReasoning(message)).toEqual(
				(expected.reasoningItems ?? []).flatMap((item) => (item.encryptedContent ? [item.encryptedContent] : [])),
			);
			const calls = message.content.flatMap((block) =>
				block.type === "toolCall" ? [{ callId: block.id, name: block.name, arguments: block.arguments }] : [],
			);
			expect(calls).toEqual(
				expected.toolCalls.map(({ callId, name, arguments: args }) => ({ callId, name, arguments: args })),
			);
			expect(message.stopReason).toBe(expected.stopReason);
			if (expected.usage) expect(message.usage).toMatchObject(expected.usage);
			if (expected.errorMessage) expect(message.errorMessage).toContain(expected.errorMessage);
			expectBlocksClosed(events);
		});
	}

	it("carries encrypted reasoning across turns with store: false and the function call's output", async () => {
		scripted.server.enqueue(
			{ raw: recordedBody("openai-responses/openai-responses-encrypted-reasoning.chunks.txt", "responses", 0) },
			{ text: "19" },
		);
		const { message } = await scripted.request();
		const call = message.content.find((block) => block.type === "toolCall");
		if (call?.type !== "toolCall") throw new Error("the recording has a function call");
		const result: ToolResultMessage = {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: [{ type: "text", text: "19" }],
			isError: false,
			timestamp: 3,
		};
		await scripted.request({ ...HELLO, messages: [...HELLO.messages, message, result] });
		const [first, second] = scripted.server.requests.map((request) => request.body);
		expect(first).toMatchObject({
			store: false,
			include: ["reasoning.encrypted_content"],
			instructions: "Be brief.",
			stream: true,
		});
		const recorded = recordedExpectations("openai-responses")["openai-responses-encrypted-reasoning.0"];
		if (recorded === undefined) throw new Error("expected.json has no openai-responses-encrypted-reasoning.0");
		const expectedEncrypted = recorded.expected.reasoningItems?.[0]?.encryptedContent;
		expect(at(second, "input")).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Hello?" }] },
			{
				type: "reasoning",
				summary: [{ type: "summary_text", text: expect.stringContaining("Calculating step-by-step") }],
				encrypted_content: expectedEncrypted,
			},
			{
				type: "function_call",
				call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
				name: "calculator",
				arguments: '{"a":12,"b":7,"op":"add"}',
			},
			{ type: "function_call_output", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", output: "19" },
		]);
	});
});
