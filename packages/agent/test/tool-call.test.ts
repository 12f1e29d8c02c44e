import { type AssistantMessage, createFauxModel, type ToolCall } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type AgentToolResult, agentLoop, type RunToolCallOptions, runToolCall } from "../src/index.js";
import {
	assistantMessageFor,
	collect,
	eventsOfType,
	makeTool,
	requestToolResults,
	resultText,
	runLoop,
	scriptedStream,
	sleep,
	text,
	toolResults,
	userMessage,
} from "./helpers.js";

const model = createFauxModel([]);

function options(overrides: Partial<RunToolCallOptions> = {}): RunToolCallOptions {
	return { tools: [], assistantMessage: assistantMessageFor(model), context: { messages: [] }, ...overrides };
}

function call(name: string, argumentsValue: Record<string, unknown> = {}): ToolCall {
	return { type: "toolCall", id: "call_1", name, arguments: argumentsValue };
}

describe("runToolCall", () => {
	it("runs one call through validation, the hooks and execute, and times execute", async () => {
		const add = makeTool("add", async (_id, params) => text(String(Number(params.a) + Number(params.b))), {
			parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
		});
		const seen: unknown[] = [];
		const outcome = await runToolCall(
			call("add", { a: "2", b: 3 }),
			options({
				tools: [add],
				beforeToolCall: async ({ args }) => {
					seen.push(args);
					return undefined;
				},
				afterToolCall: async ({ result }) => ({ details: { echoed: resultText(result) } }),
			}),
		);
		expect(seen).toEqual([{ a: 2, b: 3 }]);
		expect(resultText(outcome.result)).toBe("5");
		expect(outcome.result.details).toEqual({ echoed: "5" });
		expect(outcome.isError).toBe(false);
		expect(outcome.durationMs).toBeTypeOf("number");
	});

	it("resolves, never rejects, for an unknown tool or a throwing tool", async () => {
		const missing = await runToolCall(call("nope"), options());
		expect(missing).toMatchObject({ isError: true });
		expect(resultText(missing.result)).toBe("Tool nope not found");
		expect(missing.durationMs).toBeUndefined();

		const boom = makeTool("boom", async () => {
			throw new Error("disk full");
		});
		const failed = await runToolCall(call("boom"), options({ tools: [boom] }));
		expect(resultText(failed.result)).toBe("disk full");
		expect(failed.isError).toBe(true);
		expect(failed.durationMs).toBeTypeOf("number");
	});

	it("passes partial results to onUpdate until the tool settles, and drops later ones", async () => {
		const partials: string[] = [];
		const chatty = makeTool("chatty", async (_id, _params, _signal, onUpdate) => {
			onUpdate?.(text("first"));
			onUpdate?.(text("second"));
			setTimeout(() => onUpdate?.(text("too late")), 0);
			return text("done");
		});
		await runToolCall(
			call("chatty"),
			options({ tools: [chatty], onUpdate: (partial) => partials.push(resultText(partial)) }),
		);
		await sleep(10);
		expect(partials).toEqual(["first", "second"]);
	});

	it("does not start a call whose signal is already aborted", async () => {
		let ran = false;
		const tool = makeTool("work", async () => {
			ran = true;
			return text("ok");
		});
		const controller = new AbortController();
		controller.abort();
		const outcome = await runToolCall(call("work"), options({ tools: [tool], signal: controller.signal }));
		expect(resultText(outcome.result)).toBe("Operation aborted");
		expect(outcome.isError).toBe(true);
		expect(ran).toBe(false);
	});

	it("keeps structuredContent on the outcome and reports a tool's own isError", async () => {
		const check = makeTool("check", async () => ({
			content: [{ type: "text", text: "exit 2" }],
			structuredContent: { exit_code: 2 },
			isError: true,
		}));
		const outcome = await runToolCall(call("check"), options({ tools: [check] }));
		expect(outcome.isError).toBe(true);
		expect(outcome.result.structuredContent).toEqual({ exit_code: 2 });
	});

	it("turns a malformed tool result into an error", async () => {
		const broken = makeTool("broken", async () => "plain text" as unknown as AgentToolResult);
		const outcome = await runToolCall(call("broken"), options({ tools: [broken] }));
		expect(outcome.isError).toBe(true);
		expect(resultText(outcome.result)).toContain("returned an invalid result");
	});
});

describe("the pipeline inside agentLoop", () => {
	const counter = () => {
		const state = { runs: 0 };
		const tool = makeTool("count", async () => {
			state.runs++;
			return text(`run ${state.runs}`);
		});
		return { state, tool };
	};

	it("answers an unknown tool with an error result and goes on to the next request", async () => {
		const { messages, model } = await runLoop([{ toolCalls: [{ name: "nope", arguments: {} }] }, { text: "ok" }], []);
		const [result] = toolResults(messages);
		expect(result).toMatchObject({ toolName: "nope", isError: true });
		expect(resultText(result)).toBe("Tool nope not found");
		expect(requestToolResults(model, 1)).toHaveLength(1);
	});

	it("answers invalid arguments with the validation text, and the model sees it", async () => {
		const tool = makeTool("read", async () => text("never"), { parameters: Type.Object({ path: Type.String() }) });
		const { messages, model } = await runLoop(
			[{ toolCalls: [{ name: "read", arguments: { file: "a" } }] }, { text: "ok" }],
			[tool],
		);
		const expected = [
			'Validation failed for tool "read":',
			"  - path: must have required property 'path'",
			"",
			"Received arguments:",
			'{\n  "file": "a"\n}',
		].join("\n");
		expect(resultText(toolResults(messages)[0])).toBe(expected);
		expect(resultText(requestToolResults(model, 1)[0])).toBe(expected);
	});

	it("answers a provider's argumentsError as a validation failure without running the tool", async () => {
		const { state, tool } = counter();
		const { messages } = await collect(
			agentLoop(
				[userMessage("go")],
				{ messages: [], tools: [tool] },
				{
					model: createFauxModel([]),
					streamFn: scriptedStream([
						{
							content: [{ type: "toolCall", id: "c1", name: "count", arguments: {}, argumentsError: "Bad JSON at 7" }],
							stopReason: "toolUse",
						},
						{ content: [{ type: "text", text: "ok" }], stopReason: "stop" },
					]),
				},
			),
		);
		expect(resultText(toolResults(messages)[0])).toBe(
			'Validation failed for tool "count":\n  - root: Bad JSON at 7\n\nReceived arguments:\n{}',
		);
		expect(state.runs).toBe(0);
	});

	it("coerces arguments and drops null optionals for execute, while the transcript keeps what the model sent", async () => {
		const received: unknown[] = [];
		const tool = makeTool(
			"read",
			async (_id, params) => {
				received.push(params);
				return text("ok");
			},
			{ parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Number()), offset: Type.Number() }) },
		);
		const sent = { path: "a.txt", limit: null, offset: "10" };
		const { messages } = await runLoop([{ toolCalls: [{ name: "read", arguments: sent }] }, { text: "ok" }], [tool]);
		expect(received).toEqual([{ path: "a.txt", offset: 10 }]);
		const assistant = messages[1] as AssistantMessage;
		expect(assistant.content[0]).toMatchObject({ type: "toolCall", arguments: sent });
	});

	it("runs prepareArguments before validation, without touching the transcript", async () => {
		const received: unknown[] = [];
		const tool = makeTool(
			"read",
			async (_id, params) => {
				received.push(params);
				return text("ok");
			},
			{
				parameters: Type.Object({ path: Type.String() }),
				prepareArguments: (raw) => {
					const legacy = raw as { file_path?: string; path?: string };
					if (legacy.file_path !== undefined) {
						legacy.path = legacy.file_path;
						delete legacy.file_path;
					}
					return legacy;
				},
			},
		);
		const { messages } = await runLoop(
			[{ toolCalls: [{ name: "read", arguments: { file_path: "old.txt" } }] }, { text: "ok" }],
			[tool],
		);
		expect(received).toEqual([{ path: "old.txt" }]);
		expect((messages[1] as AssistantMessage).content[0]).toMatchObject({ arguments: { file_path: "old.txt" } });
	});

	it("blocks a call with the hook's reason, or the default text, and never runs it", async () => {
		const { state, tool } = counter();
		let calls = 0;
		const { messages } = await runLoop(
			[
				{
					toolCalls: [
						{ name: "count", arguments: {} },
						{ name: "count", arguments: {} },
					],
				},
				{ text: "ok" },
			],
			[tool],
			{ beforeToolCall: async () => (++calls === 1 ? { block: true, reason: "Denied by policy" } : { block: true }) },
		);
		expect(toolResults(messages).map(resultText)).toEqual(["Denied by policy", "Tool execution was blocked"]);
		expect(toolResults(messages).every((message) => message.isError && message.durationMs === undefined)).toBe(true);
		expect(toolResults(messages).map((message) => message.blocked)).toEqual([true, true]);
		expect(state.runs).toBe(0);
	});

	it("treats a throwing beforeToolCall as a block with its message", async () => {
		const { state, tool } = counter();
		const { messages } = await runLoop([{ toolCalls: [{ name: "count", arguments: {} }] }, { text: "ok" }], [tool], {
			beforeToolCall: async () => {
				throw new Error("permission service unreachable");
			},
		});
		expect(resultText(toolResults(messages)[0])).toBe("permission service unreachable");
		expect(state.runs).toBe(0);
	});

	it("lets beforeToolCall change the arguments in place", async () => {
		const received: unknown[] = [];
		const tool = makeTool(
			"write",
			async (_id, params) => {
				received.push(params);
				return text("ok");
			},
			{ parameters: Type.Object({ path: Type.String() }) },
		);
		const { messages } = await runLoop(
			[{ toolCalls: [{ name: "write", arguments: { path: "a.txt" } }] }, { text: "ok" }],
			[tool],
			{
				beforeToolCall: async ({ args }) => {
					(args as { path: string }).path = "sandbox/a.txt";
					return undefined;
				},
			},
		);
		expect(received).toEqual([{ path: "sandbox/a.txt" }]);
		expect((messages[1] as AssistantMessage).content[0]).toMatchObject({ arguments: { path: "a.txt" } });
	});

	it("answers a throwing execute with the error's message and still times it", async () => {
		const tool = makeTool("boom", async () => {
			await sleep(20);
			throw new Error("ENOSPC: no space left on device");
		});
		const { messages } = await runLoop([{ toolCalls: [{ name: "boom", arguments: {} }] }, { text: "ok" }], [tool]);
		const [result] = toolResults(messages);
		expect(result).toMatchObject({ isError: true });
		expect(resultText(result)).toBe("ENOSPC: no space left on device");
		expect(result?.durationMs).toBeGreaterThanOrEqual(15);
	});

	it("answers a throwing afterToolCall with its message and keeps durationMs", async () => {
		const { tool } = counter();
		const { messages } = await runLoop([{ toolCalls: [{ name: "count", arguments: {} }] }, { text: "ok" }], [tool], {
			afterToolCall: async () => {
				throw new Error("redaction failed");
			},
		});
		const [result] = toolResults(messages);
		expect(result).toMatchObject({ isError: true });
		expect(resultText(result)).toBe("redaction failed");
		expect(result?.durationMs).toBeTypeOf("number");
	});

	it("merges afterToolCall field by field; new content without structuredContent drops the old one", async () => {
		const tool = makeTool("stat", async () => ({
			content: [{ type: "text", text: "size 10" }],
			details: { raw: true },
			structuredContent: { size: 10 },
		}));
		const turns = [
			{
				toolCalls: [
					{ id: "a", name: "stat", arguments: {} },
					{ id: "b", name: "stat", arguments: {} },
					{ id: "c", name: "stat", arguments: {} },
				],
			},
			{ text: "ok" },
		];
		const { events } = await runLoop(turns, [tool], {
			afterToolCall: async ({ toolCall }) => {
				if (toolCall.id === "a") return { details: { redacted: true } };
				if (toolCall.id === "b") return { content: [{ type: "text", text: "size hidden" }] };
				return { content: [{ type: "text", text: "size 11" }], structuredContent: { size: 11 }, isError: true };
			},
		});
		const ends = Object.fromEntries(
			eventsOfType(events, "tool_execution_end").map((event) => [event.toolCallId, event]),
		);
		expect(ends.a?.result).toEqual({
			content: [{ type: "text", text: "size 10" }],
			details: { redacted: true },
			structuredContent: { size: 10 },
		});
		expect(ends.b?.result).toEqual({ content: [{ type: "text", text: "size hidden" }], details: { raw: true } });
		expect(ends.c?.result.structuredContent).toEqual({ size: 11 });
		expect(ends.c?.isError).toBe(true);
		expect(ends.a?.isError).toBe(false);
	});

	it("turns onUpdate into tool_execution_update events and drops updates after the tool settled", async () => {
		const tool = makeTool("progress", async (_id, _params, _signal, onUpdate) => {
			onUpdate?.(text("10%"));
			await sleep(5);
			onUpdate?.(text("90%"));
			setTimeout(() => onUpdate?.(text("late")), 0);
			return text("done");
		});
		const { events } = await runLoop(
			[
				{ toolCalls: [{ name: "progress", arguments: {} }] },
				async () => {
					await sleep(20);
					return { text: "ok" };
				},
			],
			[tool],
		);
		const kinds = events
			.filter((event) => event.type.startsWith("tool_execution"))
			.map((event) => (event.type === "tool_execution_update" ? resultText(event.partialResult) : event.type));
		expect(kinds).toEqual(["tool_execution_start", "10%", "90%", "tool_execution_end"]);
	});
});
