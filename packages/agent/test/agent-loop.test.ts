import {
	type AssistantMessage,
	createFauxModel,
	emptyUsage,
	type Message,
	stream,
	type ToolResultMessage,
} from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { type AgentContext, type AgentMessage, agentLoop, agentLoopContinue, GantryAgentError } from "../src/index.js";
import {
	collect,
	eventsOfType,
	eventTypes,
	makeTool,
	requestToolResults,
	resultText,
	runLoop,
	sleep,
	text,
	toolResults,
	userMessage,
} from "./helpers.js";

const slowThenFast = () => [
	makeTool("slow", async () => {
		await sleep(20);
		return text("slow done");
	}),
	makeTool("fast", async () => text("fast done")),
];

describe("agentLoop", () => {
	it("emits agent, turn, message and tool events in order", async () => {
		const { events } = await runLoop(
			[
				{
					text: "Let me look.",
					toolCalls: [
						{ id: "s", name: "slow", arguments: {} },
						{ id: "f", name: "fast", arguments: {} },
					],
				},
				{ text: "Both done." },
			],
			slowThenFast(),
		);
		expect(eventTypes(events).filter((type) => type !== "message_update")).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start:s",
			"tool_execution_start:f",
			"tool_execution_end:f",
			"tool_execution_end:s",
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const types = eventTypes(events);
		const firstUpdate = types.indexOf("message_update");
		expect(firstUpdate).toBeGreaterThan(types.indexOf("message_start:assistant"));
		expect(firstUpdate).toBeLessThan(types.indexOf("message_end:assistant"));
		const update = eventsOfType(events, "message_update")[0];
		expect(update?.assistantMessageEvent.type).toBe("text_start");
	});

	it("resolves result() to the prompts followed by every message the run added, in order", async () => {
		const { events, messages } = await runLoop(
			[{ toolCalls: [{ id: "f", name: "fast", arguments: {} }] }, { text: "done" }],
			slowThenFast(),
		);
		expect(messages.map((message) => (message as Message).role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		const end = eventsOfType(events, "agent_end")[0];
		expect(end?.messages).toEqual(messages);
	});

	it("answers the tool calls of a response cut off by the token limit without running them, then asks again", async () => {
		let runs = 0;
		const tool = makeTool("write", async () => {
			runs++;
			return text("written");
		});
		const { messages, model } = await runLoop(
			[
				{ toolCalls: [{ name: "write", arguments: { content: "half of a very long fi" } }], stopReason: "length" },
				{ toolCalls: [{ name: "write", arguments: { content: "short" } }] },
				{ text: "done" },
			],
			[tool],
		);
		expect(runs).toBe(1);
		const [notExecuted] = requestToolResults(model, 1);
		expect(notExecuted?.isError).toBe(true);
		expect(resultText(notExecuted)).toContain("was not executed");
		expect(resultText(notExecuted)).toContain("output token limit");
		expect(resultText(notExecuted)).toContain("Issue the call again");
		expect(toolResults(messages)).toHaveLength(2);
	});

	it("ends the run on a failed response, still answering its tool calls", async () => {
		let runs = 0;
		const tool = makeTool("fast", async () => {
			runs++;
			return text("ok");
		});
		const { events, messages, model } = await runLoop(
			[
				{ toolCalls: [{ id: "x", name: "fast", arguments: {} }], stopReason: "error", errorMessage: "overloaded" },
				{ text: "never" },
			],
			[tool],
		);
		expect(model.calls).toHaveLength(1);
		expect(runs).toBe(0);
		expect(messages.map((message) => (message as Message).role)).toEqual(["user", "assistant", "toolResult"]);
		expect(messages[1]).toMatchObject({ stopReason: "error", errorMessage: "overloaded" });
		expect(toolResults(messages)[0]).toMatchObject({ toolCallId: "x", isError: true });
		expect(eventTypes(events).slice(-2)).toEqual(["turn_end", "agent_end"]);
	});

	it("answers the tool calls of an aborted response with Operation aborted", async () => {
		const { messages } = await runLoop(
			[{ toolCalls: [{ id: "x", name: "fast", arguments: {} }], stopReason: "aborted" }],
			slowThenFast(),
		);
		expect(resultText(toolResults(messages)[0])).toBe("Operation aborted");
	});

	it("ends with the failed assistant message when the model cannot answer, without rejecting", async () => {
		const { messages } = await runLoop([], []);
		expect(messages.at(-1)).toMatchObject({
			role: "assistant",
			stopReason: "error",
			errorMessage: "No more faux turns",
		});
	});

	it("turns a throwing transformContext into a failed assistant message", async () => {
		const { messages } = await runLoop([{ text: "never" }], [], {
			transformContext: async () => {
				throw new Error("compaction failed");
			},
		});
		expect(messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "compaction failed" });
	});

	it("injects steering messages after all tool calls of the current message, before the next request", async () => {
		const queue: AgentMessage[] = [];
		const tools = [
			makeTool("fast", async (id) => {
				if (id === "call_1") queue.push(userMessage("use tabs, not spaces"));
				return text("ok");
			}),
		];
		const { messages, model } = await runLoop(
			[
				{
					toolCalls: [
						{ name: "fast", arguments: {} },
						{ name: "fast", arguments: {} },
					],
				},
				{ text: "ok" },
			],
			tools,
			{ getSteeringMessages: async () => queue.splice(0) },
		);
		expect(messages.map((message) => (message as Message).role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"user",
			"assistant",
		]);
		expect(model.calls[1]?.messages.at(-1)).toMatchObject({ role: "user", content: "use tabs, not spaces" });
	});

	it("starts another turn with follow-up messages when the agent would stop", async () => {
		const followUps = [userMessage("and now the tests")];
		const { events, messages, model } = await runLoop([{ text: "first answer" }, { text: "second answer" }], [], {
			getFollowUpMessages: async () => followUps.splice(0),
		});
		expect(model.calls).toHaveLength(2);
		expect(messages.map((message) => (message as Message).role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(eventsOfType(events, "turn_start")).toHaveLength(2);
	});

	it("converts agent messages with convertToLlm and rewrites only the request with transformContext", async () => {
		type Note = { role: "note"; text: string; timestamp: number };
		const note = { role: "note", text: "remember the budget", timestamp: 1 } as Note as unknown as AgentMessage;
		const model = createFauxModel([{ text: "ok" }, { text: "ok again" }]);
		const context: AgentContext = { messages: [note, userMessage("old question")] };
		const { messages } = await collect(
			agentLoop([userMessage("new question")], context, {
				model,
				convertToLlm: (list) =>
					list.map((message) => {
						const candidate = message as unknown as Note;
						return candidate.role === "note"
							? { role: "user", content: `[note] ${candidate.text}`, timestamp: candidate.timestamp }
							: (message as Message);
					}),
				transformContext: async (list) => list.slice(-2),
			}),
		);
		expect(model.calls[0]?.messages).toEqual([
			expect.objectContaining({ content: "old question" }),
			expect.objectContaining({ content: "new question" }),
		]);
		expect(messages).toHaveLength(2);

		const plain = createFauxModel([{ text: "ok" }]);
		await collect(agentLoop([userMessage("q")], { messages: [note] }, { model: plain }));
		expect(plain.calls[0]?.messages).toEqual([expect.objectContaining({ role: "user", content: "q" })]);
	});

	it("asks getApiKey for the model's provider at each request", async () => {
		const seen: (string | undefined)[] = [];
		const providers: string[] = [];
		const model = createFauxModel([{ toolCalls: [{ name: "fast", arguments: {} }] }, { text: "ok" }]);
		let token = 0;
		await collect(
			agentLoop(
				[userMessage("go")],
				{ messages: [], tools: slowThenFast() },
				{
					model,
					apiKey: "static-key",
					getApiKey: async (provider) => {
						providers.push(provider);
						return `token-${++token}`;
					},
					streamFn: (requestModel, context, options) => {
						seen.push(options?.apiKey);
						return stream(requestModel, context, options);
					},
				},
			),
		);
		expect(providers).toEqual(["faux", "faux"]);
		expect(seen).toEqual(["token-1", "token-2"]);
	});

	it("reads context.tools and context.systemPrompt at every model request", async () => {
		const extra = makeTool("extra", async () => text("extra"));
		const context: AgentContext = { systemPrompt: "v1", messages: [], tools: [] };
		const activate = makeTool("activate", async () => {
			context.tools = [activate, extra];
			context.systemPrompt = "v2";
			return text("activated");
		});
		context.tools = [activate];
		const model = createFauxModel([{ toolCalls: [{ name: "activate", arguments: {} }] }, { text: "ok" }]);
		await collect(agentLoop([userMessage("go")], context, { model }));
		expect(model.calls.map((call) => call.tools?.map((tool) => tool.name))).toEqual([
			["activate"],
			["activate", "extra"],
		]);
		expect(model.calls.map((call) => call.systemPrompt)).toEqual(["v1", "v2"]);
	});

	it("does not modify the caller's context.messages", async () => {
		const context: AgentContext = { messages: [userMessage("earlier")] };
		await collect(agentLoop([userMessage("now")], context, { model: createFauxModel([{ text: "ok" }]) }));
		expect(context.messages).toHaveLength(1);
	});
});

describe("agentLoopContinue", () => {
	it("continues from a context that ends with tool results, emitting no prompt", async () => {
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [{ type: "toolCall", id: "c1", name: "fast", arguments: {} }],
			stopReason: "toolUse",
			usage: emptyUsage(),
			api: "faux",
			provider: "faux",
			model: "faux-1",
			timestamp: 1,
		};
		const result: ToolResultMessage = {
			role: "toolResult",
			toolCallId: "c1",
			toolName: "fast",
			content: [{ type: "text", text: "ok" }],
			isError: false,
			timestamp: 2,
		};
		const model = createFauxModel([{ text: "continued" }]);
		const { events, messages } = await collect(
			agentLoopContinue({ messages: [userMessage("go"), assistant, result] }, { model }),
		);
		expect(messages).toHaveLength(1);
		expect(messages[0]).toMatchObject({ role: "assistant" });
		expect(eventTypes(events).slice(0, 3)).toEqual(["agent_start", "turn_start", "message_start:assistant"]);
		expect(model.calls[0]?.messages).toHaveLength(3);
	});

	it("throws GantryAgentError for an empty context or one that ends with an assistant message", async () => {
		const model = createFauxModel([]);
		expect(() => agentLoopContinue({ messages: [] }, { model })).toThrow(GantryAgentError);
		const { messages } = await runLoop([{ text: "hi" }], []);
		try {
			agentLoopContinue({ messages }, { model });
			expect.unreachable();
		} catch (error) {
			expect((error as GantryAgentError).code).toBe("cannot_continue");
		}
	});
});
