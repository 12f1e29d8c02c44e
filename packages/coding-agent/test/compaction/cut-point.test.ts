import type { AgentMessage } from "@gantry/agent";
import { describe, expect, it } from "vitest";
import { findCutIndex } from "../../src/compaction/cut-point.js";

const user = (text: string) => ({ role: "user", content: text, timestamp: 0 }) as AgentMessage;
const assistant = (text: string, call?: string) =>
	({
		role: "assistant",
		content: [{ type: "text", text }, ...(call ? [{ type: "toolCall", id: call, name: "t", arguments: {} }] : [])],
	}) as unknown as AgentMessage;
const result = (id: string, size: number) =>
	({
		role: "toolResult",
		toolCallId: id,
		toolName: "t",
		isError: false,
		content: [{ type: "text", text: "r".repeat(size) }],
	}) as AgentMessage;

describe("findCutIndex", () => {
	const conversation = [
		user("u".repeat(400)), // 0: 100 tokens
		assistant("a", "c1"), // 1
		result("c1", 400), // 2: 100 tokens
		user("u".repeat(400)), // 3: 100 tokens
		assistant("a", "c2"), // 4
		result("c2", 400), // 5: 100 tokens
		assistant("done"), // 6
	];

	it("keeps about keepTokens of the newest messages, from a turn boundary", () => {
		expect(findCutIndex(conversation, 250)).toBe(3);
		expect(findCutIndex(conversation, 1_000)).toBeUndefined();
	});

	it("never starts the kept part at a tool result: a budget that ends inside a call starts at the call", () => {
		// 110 tokens hold result c2 and its call: the kept part starts at the call (4).
		expect(findCutIndex(conversation, 110)).toBe(4);
		// 90 tokens do not even hold the last result: the kept part still starts at its call.
		expect(findCutIndex(conversation.slice(0, 6), 90)).toBe(4);
		for (let keep = 0; keep < 700; keep += 7) {
			const cut = findCutIndex(conversation, keep);
			if (cut !== undefined) expect((conversation[cut] as { role: string }).role).not.toBe("toolResult");
		}
	});

	it("a manual compaction of a conversation that fits keeps its last turn, or cuts within the only one", () => {
		expect(findCutIndex(conversation, 10_000, 0, true)).toBe(3);
		expect(findCutIndex(conversation.slice(0, 3), 10_000, 0, true)).toBe(1);
		expect(findCutIndex([user("only")], 10_000, 0, true)).toBeUndefined();
		// Nothing before an earlier compaction's first kept message is cut again.
		expect(findCutIndex(conversation, 10_000, 3, true)).toBe(6);
	});
});
