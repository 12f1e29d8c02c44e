import type { FauxTurn } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/index.js";
import { eventsOfType, makeTool, resultText, runLoop, sleep, text, toolResults } from "./helpers.js";

/** Tools that sleep for `ms` from their arguments and record how many run at once. */
function concurrencyProbe(options: { executionMode?: "sequential" | "parallel" } = {}) {
	const state = { running: 0, maxRunning: 0, started: [] as string[] };
	const tool = makeTool(
		"sleep",
		async (id, params) => {
			state.started.push(id);
			state.running++;
			state.maxRunning = Math.max(state.maxRunning, state.running);
			await sleep(Number(params.ms));
			state.running--;
			return text(`slept ${params.ms}`);
		},
		options,
	);
	return { state, tool };
}

function batch(...delays: number[]): FauxTurn {
	return { toolCalls: delays.map((ms, index) => ({ id: `t${index + 1}`, name: "sleep", arguments: { ms } })) };
}

const endOrder = (events: AgentEvent[]) => eventsOfType(events, "tool_execution_end").map((event) => event.toolCallId);

describe("tool batches", () => {
	it("runs in parallel by default: preflight in source order, ends in completion order, results in source order", async () => {
		const { state, tool } = concurrencyProbe();
		const preflight: string[] = [];
		const { events, messages } = await runLoop([batch(40, 5, 20), { text: "ok" }], [tool], {
			beforeToolCall: async ({ toolCall }) => {
				preflight.push(toolCall.id);
				return undefined;
			},
		});
		expect(preflight).toEqual(["t1", "t2", "t3"]);
		expect(state.maxRunning).toBe(3);
		expect(endOrder(events)).toEqual(["t2", "t3", "t1"]);
		expect(toolResults(messages).map((message) => message.toolCallId)).toEqual(["t1", "t2", "t3"]);
		const [turnEnd] = eventsOfType(events, "turn_end");
		expect(turnEnd?.toolResults.map((message) => message.toolCallId)).toEqual(["t1", "t2", "t3"]);
	});

	it("finishes preflight of the whole batch before any tool runs", async () => {
		const { state, tool } = concurrencyProbe();
		const startedAtPreflight: number[] = [];
		await runLoop([batch(1, 1, 1), { text: "ok" }], [tool], {
			beforeToolCall: async () => {
				startedAtPreflight.push(state.started.length);
				return undefined;
			},
		});
		expect(startedAtPreflight).toEqual([0, 0, 0]);
	});

	it('runs one call at a time with toolExecution: "sequential"', async () => {
		const { state, tool } = concurrencyProbe();
		const { events } = await runLoop([batch(30, 5, 15), { text: "ok" }], [tool], { toolExecution: "sequential" });
		expect(state.maxRunning).toBe(1);
		expect(endOrder(events)).toEqual(["t1", "t2", "t3"]);
	});

	it('runs the whole batch sequentially when one of its tools has executionMode: "sequential"', async () => {
		const { state, tool } = concurrencyProbe();
		const exclusive = makeTool("exclusive", async () => text("alone"), { executionMode: "sequential" });
		const turn: FauxTurn = {
			toolCalls: [...(batch(20, 5).toolCalls ?? []), { id: "x", name: "exclusive", arguments: {} }],
		};
		const { events } = await runLoop([turn, { text: "ok" }], [tool, exclusive]);
		expect(state.maxRunning).toBe(1);
		expect(endOrder(events)).toEqual(["t1", "t2", "x"]);
	});

	describe("terminate", () => {
		const finisher = makeTool("finish", async (_id, params) => ({ ...text("done"), terminate: params.stop === true }));
		const twoCalls = (first: boolean, second: boolean): FauxTurn => ({
			toolCalls: [
				{ name: "finish", arguments: { stop: first } },
				{ name: "finish", arguments: { stop: second } },
			],
		});

		it("ends the run after a batch in which every result terminates", async () => {
			const { model, messages } = await runLoop([twoCalls(true, true), { text: "never requested" }], [finisher]);
			expect(model.calls).toHaveLength(1);
			expect(messages.at(-1)).toMatchObject({ role: "toolResult" });
		});

		it("goes on when only some results terminate", async () => {
			const { model } = await runLoop([twoCalls(true, false), { text: "ok" }], [finisher]);
			expect(model.calls).toHaveLength(2);
		});

		it("counts a blocking beforeToolCall's terminate and afterToolCall's terminate", async () => {
			const { model } = await runLoop([twoCalls(false, false), { text: "never requested" }], [finisher], {
				beforeToolCall: async ({ toolCall }) =>
					toolCall.id === "call_1" ? { block: true, reason: "stop here", terminate: true } : undefined,
				afterToolCall: async () => ({ terminate: true }),
			});
			expect(model.calls).toHaveLength(1);
		});
	});

	describe("abort", () => {
		it("reaches running tools and answers calls not started with Operation aborted (sequential)", async () => {
			const controller = new AbortController();
			const ran: string[] = [];
			const waiter = makeTool("wait", async (id, _params, signal) => {
				ran.push(id);
				setTimeout(() => controller.abort(), 5);
				await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
				throw new Error(`stopped: ${signal?.reason instanceof Error ? signal.reason.name : "aborted"}`);
			});
			const turn: FauxTurn = {
				toolCalls: ["a", "b", "c"].map((id) => ({ id, name: "wait", arguments: {} })),
			};
			const { events, messages, model } = await runLoop(
				[turn, { text: "never" }],
				[waiter],
				{ toolExecution: "sequential" },
				controller.signal,
			);
			expect(ran).toEqual(["a"]);
			expect(toolResults(messages).map(resultText)).toEqual([
				"stopped: AbortError",
				"Operation aborted",
				"Operation aborted",
			]);
			expect(eventsOfType(events, "tool_execution_start")).toHaveLength(3);
			expect(eventsOfType(events, "tool_execution_end")).toHaveLength(3);
			expect(model.calls).toHaveLength(1);
			expect(events.at(-1)?.type).toBe("agent_end");
		});

		it("does not start a call whose beforeToolCall was still deciding when the signal aborted (sequential)", async () => {
			const controller = new AbortController();
			const { state, tool } = concurrencyProbe();
			const { messages } = await runLoop(
				[batch(1, 1), { text: "never" }],
				[tool],
				{
					toolExecution: "sequential",
					beforeToolCall: async () => {
						controller.abort();
						return undefined;
					},
				},
				controller.signal,
			);
			expect(state.started).toEqual([]);
			expect(toolResults(messages).map(resultText)).toEqual(["Operation aborted", "Operation aborted"]);
		});

		it("answers every call when the signal aborts during preflight (parallel)", async () => {
			const controller = new AbortController();
			const { state, tool } = concurrencyProbe();
			const { messages } = await runLoop(
				[batch(1, 1, 1), { text: "never" }],
				[tool],
				{
					beforeToolCall: async ({ toolCall }) => {
						if (toolCall.id === "t2") controller.abort();
						return undefined;
					},
				},
				controller.signal,
			);
			expect(state.started).toEqual([]);
			expect(toolResults(messages).map((message) => [message.toolCallId, resultText(message)])).toEqual([
				["t1", "Operation aborted"],
				["t2", "Operation aborted"],
				["t3", "Operation aborted"],
			]);
		});
	});
});
