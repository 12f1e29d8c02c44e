import { describe, expect, it } from "vitest";
import { type AssistantMessage, createOpenAICompatibleModel, getModel } from "../../src/index.js";
import { expectBlocksClosed, useScriptedProvider } from "./helpers.js";
import { recordedBody, recordedExpectations } from "./recorded.js";

const openai = useScriptedProvider(
	(server) => createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "recorded" }),
	{ maxRetries: 0 },
);
const anthropic = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "k", maxRetries: 0 },
);

function summary(message: AssistantMessage) {
	return {
		text: message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""),
		toolCalls: message.content.flatMap((block) =>
			block.type === "toolCall" ? [{ id: block.id, name: block.name, arguments: block.arguments }] : [],
		),
		stopReason: message.stopReason,
	};
}

describe("recorded streams of real providers", () => {
	for (const [name, entry] of Object.entries(recordedExpectations())) {
		it(`${name} replays to what the reference accumulator derived`, async () => {
			const scripted = entry.api === "anthropic" ? anthropic : openai;
			scripted.server.enqueue({ raw: recordedBody(entry.file, entry.api === "anthropic" ? "anthropic" : "openai") });
			const { events, message } = await scripted.request();
			const expected = entry.expected;
			expect(summary(message)).toEqual({
				text: expected.text,
				toolCalls: expected.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
				stopReason: expected.stopReason,
			});
			const thinking = message.content.flatMap((block) => (block.type === "thinking" ? [block] : []));
			expect(thinking.map((block) => block.thinking)).toEqual((expected.thinking ?? []).map((block) => block.thinking));
			if (entry.api === "anthropic") {
				expect(thinking.map((block) => block.signature ?? "")).toEqual(
					(expected.thinking ?? []).map((block) => block.signature),
				);
			}
			if (expected.usage) expect(message.usage).toMatchObject(expected.usage);
			if (expected.errorMessage) expect(message.errorMessage).toContain(expected.errorMessage);
			expectBlocksClosed(events);
			expect(events.filter((event) => event.type === "done" || event.type === "error")).toHaveLength(1);
		});
	}
});
