import { describe, expect, it } from "vitest";
import { createFauxModel, stream } from "../src/index.js";

describe("faux smoke", () => {
	it("streams text and tool calls", async () => {
		const model = createFauxModel([
			{ text: "Hello there, this is a longer piece of text to chunk.", toolCalls: [{ name: "read", arguments: { path: "a" } }] },
		]);
		const events = stream(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] });
		const types: string[] = [];
		for await (const event of events) types.push(event.type);
		const message = await events.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content[1]).toMatchObject({ type: "toolCall", id: "call_1", arguments: { path: "a" } });
		expect(types.filter((t) => t === "text_delta").length).toBeGreaterThan(1);
		expect(model.calls).toHaveLength(1);
	});
});
