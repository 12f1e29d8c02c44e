import type { FauxTurn } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentLoopConfig, AgentTool, AgentToolResult } from "../src/index.js";
import { makeTool, runLoop, sleep, text, toolResults } from "./helpers.js";

type Behaviour = "return" | "throw" | "isError" | "sleep" | "lateUpdate" | "unknown" | "invalid" | "terminate";
type BeforeHook = "allow" | "block" | "throw" | "rewrite";
type AfterHook = "none" | "throw" | "rewrite";

interface CallSpec {
	behaviour: Behaviour;
	sleepMs: number;
	sequentialTool: boolean;
	before: BeforeHook;
	after: AfterHook;
}

const callSpec = fc.record<CallSpec>({
	behaviour: fc.constantFrom("return", "throw", "isError", "sleep", "lateUpdate", "unknown", "invalid", "terminate"),
	sleepMs: fc.integer({ min: 0, max: 4 }),
	sequentialTool: fc.boolean(),
	before: fc.constantFrom("allow", "allow", "block", "throw", "rewrite"),
	after: fc.constantFrom("none", "none", "throw", "rewrite"),
});

const scenario = fc.record({
	calls: fc.array(callSpec, { minLength: 1, maxLength: 6 }),
	mode: fc.constantFrom<"parallel" | "sequential">("parallel", "sequential"),
});

describe("tool batches (property)", () => {
	it("answer every call exactly once, in source order, without rejecting; sequential means one at a time", async () => {
		await fc.assert(
			fc.asyncProperty(scenario, async ({ calls, mode }) => {
				let running = 0;
				let maxRunning = 0;
				const executed = new Set<string>();
				const tools: AgentTool[] = calls.map((spec, index) =>
					makeTool(
						`tool${index}`,
						async (id, _params, _signal, onUpdate): Promise<AgentToolResult> => {
							executed.add(id);
							running++;
							maxRunning = Math.max(maxRunning, running);
							try {
								onUpdate?.(text("working"));
								if (spec.behaviour === "sleep" || spec.sleepMs > 0) await sleep(spec.sleepMs);
								if (spec.behaviour === "throw") throw new Error(`tool${index} failed`);
								if (spec.behaviour === "lateUpdate") setTimeout(() => onUpdate?.(text("late")), 1);
								if (spec.behaviour === "isError") return { ...text("soft failure"), isError: true };
								return { ...text(`tool${index} ok`), terminate: spec.behaviour === "terminate" };
							} finally {
								running--;
							}
						},
						{
							parameters: Type.Object({ value: Type.Number() }),
							...(spec.sequentialTool ? { executionMode: "sequential" as const } : {}),
						},
					),
				);
				const toolCalls = calls.map((spec, index) => ({
					id: `c${index}`,
					name: spec.behaviour === "unknown" ? `missing${index}` : `tool${index}`,
					arguments: spec.behaviour === "invalid" ? { value: "not a number" } : { value: index },
				}));
				const byId = new Map(calls.map((spec, index) => [`c${index}`, spec]));
				const config: Partial<AgentLoopConfig> = {
					toolExecution: mode,
					beforeToolCall: async ({ toolCall, args }) => {
						const hook = byId.get(toolCall.id)?.before;
						if (hook === "block") return { block: true, reason: "blocked by test" };
						if (hook === "throw") throw new Error("hook failed");
						if (hook === "rewrite") (args as { value: number }).value = -1;
						return undefined;
					},
					afterToolCall: async ({ toolCall }) => {
						const hook = byId.get(toolCall.id)?.after;
						if (hook === "throw") throw new Error("after hook failed");
						if (hook === "rewrite") return { content: [{ type: "text", text: "rewritten" }] };
						return undefined;
					},
				};
				const turns: FauxTurn[] = [{ toolCalls }, { text: "done" }];
				const { events, messages } = await runLoop(turns, tools, config);
				await sleep(3); // let late updates fire: they must not produce events after the run

				const ids = toolCalls.map((toolCall) => toolCall.id);
				for (const id of ids) {
					const forCall = events.filter((event) => "toolCallId" in event && event.toolCallId === id);
					const starts = forCall.filter((event) => event.type === "tool_execution_start");
					const ends = forCall.filter((event) => event.type === "tool_execution_end");
					expect(starts).toHaveLength(1);
					expect(ends).toHaveLength(1);
					const startIndex = events.indexOf(starts[0]!);
					const endIndex = events.indexOf(ends[0]!);
					for (const update of forCall.filter((event) => event.type === "tool_execution_update")) {
						const at = events.indexOf(update);
						expect(at).toBeGreaterThan(startIndex);
						expect(at).toBeLessThan(endIndex);
					}
				}
				const answered = toolResults(messages).map((message) => message.toolCallId);
				expect(answered).toEqual(ids);
				for (const [index, spec] of calls.entries()) {
					const blocked = spec.before === "block" || spec.before === "throw";
					const cannotRun = spec.behaviour === "unknown" || spec.behaviour === "invalid" || blocked;
					if (cannotRun) expect(executed.has(`c${index}`)).toBe(false);
					// Only a call that reached beforeToolCall can be blocked by it; the end event and the message say so.
					const blockedByHook = blocked && spec.behaviour !== "unknown" && spec.behaviour !== "invalid";
					const end = events.find((event) => event.type === "tool_execution_end" && event.toolCallId === `c${index}`) as
						| { blocked?: true }
						| undefined;
					expect(end?.blocked).toBe(blockedByHook ? true : undefined);
					expect(toolResults(messages)[index]!.blocked).toBe(blockedByHook ? true : undefined);
					if (cannotRun || spec.behaviour === "throw" || spec.after === "throw") {
						expect(toolResults(messages)[index]!.isError).toBe(true);
					}
				}
				// An unknown name never reaches its tool, so that tool's executionMode does not count.
				const sequential =
					mode === "sequential" || calls.some((spec) => spec.sequentialTool && spec.behaviour !== "unknown");
				if (sequential) expect(maxRunning).toBeLessThanOrEqual(1);
				expect(events.at(-1)?.type).toBe("agent_end");
			}),
			{ numRuns: 120 },
		);
	});
});
