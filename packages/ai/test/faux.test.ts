import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	type AssistantMessageEvent,
	type Context,
	complete,
	createFauxModel,
	type FauxTurn,
	type Message,
	stream,
	type TextContent,
} from "../src/index.js";

const LONG_TEXT = "The quick brown fox jumps over the lazy dog while the cat watches from the warm windowsill.";

function userContext(text = "hi"): Context {
	return { messages: [{ role: "user", content: text, timestamp: 1 }] };
}

async function collect(events: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const seen: AssistantMessageEvent[] = [];
	for await (const event of events) seen.push(event);
	return seen;
}

function deltasOf(events: AssistantMessageEvent[], type: AssistantMessageEvent["type"]): string[] {
	return events.flatMap((event) => (event.type === type && "delta" in event ? [event.delta] : []));
}

afterEach(() => {
	vi.useRealTimers();
});

describe("createFauxModel", () => {
	it("describes itself as a faux model with the given id and input kinds", () => {
		expect(createFauxModel([])).toMatchObject({
			id: "faux-1",
			api: "faux",
			provider: "faux",
			input: ["text", "image"],
		});
		expect(createFauxModel([], { id: "scripted", input: ["text"] })).toMatchObject({ id: "scripted", input: ["text"] });
	});

	it("streams text in several deltas, framed by start/end events, and ends with done", async () => {
		const model = createFauxModel([{ text: LONG_TEXT }]);
		const events = stream(model, userContext());
		const seen = await collect(events);
		const types = seen.map((event) => event.type);
		expect(types[0]).toBe("start");
		expect(types[1]).toBe("text_start");
		expect(types.slice(-2)).toEqual(["text_end", "done"]);
		const deltas = deltasOf(seen, "text_delta");
		expect(deltas.length).toBeGreaterThan(1);
		expect(deltas.join("")).toBe(LONG_TEXT);
		const message = await events.result();
		expect(message).toMatchObject({
			role: "assistant",
			stopReason: "stop",
			content: [{ type: "text", text: LONG_TEXT }],
		});
		expect(message).toMatchObject({ api: "faux", provider: "faux", model: "faux-1" });
	});

	it("streams thinking before text", async () => {
		const model = createFauxModel([{ thinking: "Let me think about the question carefully first.", text: "Answer." }]);
		const message = await complete(model, userContext());
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think about the question carefully first." },
			{ type: "text", text: "Answer." },
		]);
	});

	it("streams tool-call arguments as partial JSON and defaults the stop reason to toolUse", async () => {
		const args = { path: "src/some/rather/long/path/to/a/file.ts", offset: 10, limit: 200 };
		const model = createFauxModel([{ toolCalls: [{ name: "read", arguments: args }] }]);
		const events = stream(model, userContext());
		const seen = await collect(events);
		const deltas = deltasOf(seen, "toolcall_delta");
		expect(deltas.length).toBeGreaterThan(1);
		expect(JSON.parse(deltas.join(""))).toEqual(args);
		const end = seen.find((event) => event.type === "toolcall_end");
		expect(end).toMatchObject({ toolCall: { type: "toolCall", id: "call_1", name: "read", arguments: args } });
		expect((await events.result()).stopReason).toBe("toolUse");
	});

	it("counts generated call ids per model across turns and keeps explicit ids", async () => {
		const model = createFauxModel([
			{
				toolCalls: [
					{ name: "a", arguments: {} },
					{ name: "b", arguments: {} },
				],
			},
			{
				toolCalls: [
					{ id: "mine", name: "c", arguments: {} },
					{ name: "d", arguments: {} },
				],
			},
		]);
		const idsOf = (message: { content: { type: string; id?: string }[] }) =>
			message.content.filter((block) => block.type === "toolCall").map((block) => block.id);
		expect(idsOf(await complete(model, userContext()))).toEqual(["call_1", "call_2"]);
		expect(idsOf(await complete(model, userContext()))).toEqual(["mine", "call_3"]);
		const other = createFauxModel([{ toolCalls: [{ name: "a", arguments: {} }] }]);
		expect(idsOf(await complete(other, userContext()))).toEqual(["call_1"]);
	});

	it("honours scripted stop reasons and error messages", async () => {
		const model = createFauxModel([
			{ text: "cut", stopReason: "length" },
			{ stopReason: "error", errorMessage: "overloaded" },
			{ stopReason: "error" },
		]);
		expect((await complete(model, userContext())).stopReason).toBe("length");
		const events = stream(model, userContext());
		const last = (await collect(events)).at(-1);
		expect(last).toMatchObject({ type: "error", reason: "error", error: { errorMessage: "overloaded" } });
		expect(await complete(model, userContext())).toMatchObject({ stopReason: "error", errorMessage: "Faux error" });
	});

	it("plays function turns with the request context, sync or async", async () => {
		const model = createFauxModel([
			(context) => ({ text: `You said: ${context.messages[0]?.content}` }),
			async (context) => ({ text: `${context.messages.length} messages` }),
		]);
		expect((await complete(model, userContext("ping"))).content).toEqual([{ type: "text", text: "You said: ping" }]);
		const context: Context = { messages: [...userContext().messages, ...userContext().messages] };
		expect((await complete(model, context)).content).toEqual([{ type: "text", text: "2 messages" }]);
	});

	it("ends with an error when a function turn throws", async () => {
		const model = createFauxModel([
			() => {
				throw new Error("script bug");
			},
		]);
		expect(await complete(model, userContext())).toMatchObject({ stopReason: "error", errorMessage: "script bug" });
	});

	it('ends with "No more faux turns" when the script runs out, and still records the request', async () => {
		const model = createFauxModel([{ text: "only" }]);
		await complete(model, userContext());
		const events = stream(model, userContext("again"));
		const seen = await collect(events);
		expect(seen).toHaveLength(1);
		expect(seen[0]).toMatchObject({ type: "error", reason: "error" });
		expect(await events.result()).toMatchObject({ stopReason: "error", errorMessage: "No more faux turns" });
		expect(model.calls).toHaveLength(2);
	});

	it("completes partial usage and estimates usage when the turn gives none", async () => {
		const model = createFauxModel([{ text: "a", usage: { input: 100, output: 7, cacheRead: 3 } }, { text: "b" }]);
		expect((await complete(model, userContext())).usage).toMatchObject({
			input: 100,
			output: 7,
			cacheRead: 3,
			cacheWrite: 0,
			totalTokens: 110,
		});
		const estimated = (await complete(model, userContext())).usage;
		expect(estimated.input).toBeGreaterThan(0);
		expect(estimated.output).toBeGreaterThan(0);
		expect(estimated.totalTokens).toBe(estimated.input + estimated.output);
	});

	it("records a pre-aborted request without consuming a turn", async () => {
		const model = createFauxModel([{ text: "first" }]);
		const controller = new AbortController();
		controller.abort();
		const events = stream(model, userContext("aborted"), { signal: controller.signal });
		const seen = await collect(events);
		expect(seen.map((event) => event.type)).toEqual(["error"]);
		expect(await events.result()).toMatchObject({ stopReason: "aborted" });
		expect(model.calls.map((call) => call.messages[0]?.content)).toEqual(["aborted"]);
		expect((await complete(model, userContext())).content).toEqual([{ type: "text", text: "first" }]);
	});

	it("stops mid-stream on abort, keeping the partial text, and the turn is used up", async () => {
		const model = createFauxModel([{ text: LONG_TEXT }, { text: "next" }], { delayMs: 5 });
		const controller = new AbortController();
		const events = stream(model, userContext(), { signal: controller.signal });
		const seen: AssistantMessageEvent[] = [];
		for await (const event of events) {
			seen.push(event);
			if (event.type === "text_delta") controller.abort();
		}
		const message = await events.result();
		expect(seen.at(-1)).toMatchObject({ type: "error", reason: "aborted" });
		expect(message.stopReason).toBe("aborted");
		const text = message.content[0];
		expect(text?.type === "text" && text.text.length > 0 && text.text.length < LONG_TEXT.length).toBe(true);
		expect((await complete(model, userContext())).content).toEqual([{ type: "text", text: "next" }]);
	});

	it("pauses delayMs between deltas", async () => {
		vi.useFakeTimers();
		const model = createFauxModel([{ text: LONG_TEXT }], { delayMs: 1_000 });
		const events = stream(model, userContext());
		const seen: AssistantMessageEvent[] = [];
		const consuming = (async () => {
			for await (const event of events) seen.push(event);
		})();
		await vi.advanceTimersByTimeAsync(10);
		expect(seen.map((event) => event.type)).toEqual(["start", "text_start"]);
		await vi.advanceTimersByTimeAsync(1_000);
		expect(deltasOf(seen, "text_delta")).toHaveLength(1);
		await vi.runAllTimersAsync();
		await consuming;
		expect(seen.at(-1)?.type).toBe("done");
	});

	it("keeps deep copies of each request in calls", async () => {
		const parameters = Type.Object({ path: Type.String() });
		const block: TextContent = { type: "text", text: "original" };
		const messages: Message[] = [{ role: "user", content: [block], timestamp: 1 }];
		const context: Context = {
			systemPrompt: "be brief",
			messages,
			tools: [{ name: "read", description: "Read a file", parameters, constrainedSampling: false }],
		};
		const model = createFauxModel([{ text: "ok" } satisfies FauxTurn]);
		await complete(model, context);
		block.text = "changed";
		messages.push({ role: "user", content: "later", timestamp: 2 });
		parameters.properties.path.description = "changed";
		expect(model.calls).toHaveLength(1);
		const [call] = model.calls;
		expect(call).toMatchObject({
			systemPrompt: "be brief",
			messages: [{ role: "user", content: [{ type: "text", text: "original" }] }],
			tools: [{ name: "read", description: "Read a file", constrainedSampling: false }],
		});
		expect(call?.messages).toHaveLength(1);
		const [tool] = call?.tools ?? [];
		if (tool === undefined) throw new Error("the recorded request has no tool");
		expect(tool.parameters.properties.path.description).toBeUndefined();
	});
});
