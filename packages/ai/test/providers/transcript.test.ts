import { describe, expect, it } from "vitest";
import { createAssistantMessage, createFauxModel, type Message } from "../../src/index.js";
import { MISSING_TOOL_RESULT_TEXT, normalizeTranscript } from "../../src/providers/transcript.js";

const model = createFauxModel([]);

function assistant(stopReason: "toolUse" | "error" | "aborted", ...ids: string[]): Message {
	const message = createAssistantMessage(model);
	message.stopReason = stopReason;
	message.content = ids.map((id) => ({ type: "toolCall", id, name: "read", arguments: {} }));
	return message;
}

function result(id: string): Message {
	return { role: "toolResult", toolCallId: id, toolName: "read", content: [], isError: false, timestamp: 5 };
}

describe("normalizeTranscript", () => {
	it("keeps paired calls and results unchanged", () => {
		const messages = [assistant("toolUse", "a", "b"), result("b"), result("a")];
		expect(normalizeTranscript(messages)).toEqual(messages);
	});

	it("drops failed and aborted assistant messages with their results, and orphan results", () => {
		const kept = assistant("toolUse", "c");
		const messages = [
			assistant("error", "a"),
			result("a"),
			assistant("aborted", "b"),
			result("b"),
			result("zzz"),
			kept,
			result("c"),
		];
		expect(normalizeTranscript(messages)).toEqual([kept, result("c")]);
	});

	it("answers calls without a result with an error result before the next message", () => {
		const user: Message = { role: "user", content: "next", timestamp: 9 };
		const normalized = normalizeTranscript([assistant("toolUse", "a", "b"), result("a"), user]);
		expect(normalized.map((message) => message.role)).toEqual(["assistant", "toolResult", "toolResult", "user"]);
		expect(normalized[2]).toMatchObject({
			toolCallId: "b",
			isError: true,
			content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
		});
	});
});
