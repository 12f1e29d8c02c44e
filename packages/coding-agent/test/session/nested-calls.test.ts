import type { AgentToolCallOutcome } from "@gantry/agent";
import { completeUsage, createFauxModel } from "@gantry/ai";
import { defineTool, type Extension, type ToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type AgentSessionEvent, createAgentSession } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

type Call = { name: string; args: unknown };

/** A model-only orchestrator that runs the given calls through ctx.executeTool (in parallel or one by one). */
function orchestrator(options: { parallel?: boolean; name?: string } = {}) {
	const outcomes: AgentToolCallOutcome[] = [];
	const definition = defineTool({
		name: options.name ?? "orchestrate",
		label: "Orchestrate",
		description: "Runs other tools",
		parameters: Type.Object({ calls: Type.Array(Type.Object({ name: Type.String(), args: Type.Unknown() })) }),
		exposure: "model-only",
		async execute(_id, params, signal, _onUpdate, ctx) {
			const calls = params.calls as Call[];
			const run = (call: Call) => ctx!.executeTool(call.name, call.args, { signal });
			const results = options.parallel ? await Promise.all(calls.map(run)) : [];
			if (!options.parallel) for (const call of calls) results.push(await run(call));
			outcomes.push(...results);
			return {
				content: [
					{
						type: "text",
						text: results.map((outcome) => `${outcome.toolCall.id}:${outcome.isError ? "error" : "ok"}`).join(","),
					},
				],
				usage: completeUsage({ input: 1, output: 1 }),
			};
		},
	});
	return { definition: definition as unknown as ToolDefinition, outcomes };
}

/** A tool that reports usage, to check nested usage is summed. */
const metered = defineTool({
	name: "metered",
	label: "metered",
	description: "Costs tokens",
	parameters: Type.Object({}),
	exposure: "codemode",
	async execute() {
		return {
			content: [{ type: "text", text: "spent" }],
			usage: completeUsage({ input: 10, output: 5 }),
		};
	},
}) as unknown as ToolDefinition;

describe("nested calls", () => {
	it("runs nested calls through the pipeline with ids, events, records and summed usage", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const orchestrate = orchestrator({ parallel: true });
			const model = createFauxModel([
				{
					toolCalls: [
						{
							id: "top",
							name: "orchestrate",
							arguments: {
								calls: [
									{ name: "echo", args: { text: "a" } },
									{ name: "metered", args: {} },
									{ name: "echo", args: { wrong: 1 } },
									{ name: "orchestrate", args: { calls: [] } },
								],
							},
						},
					],
				},
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition, orchestrate.definition, metered],
			});
			const events: AgentSessionEvent[] = [];
			session.subscribe((event) => {
				events.push(event);
			});
			const extensionSeen: string[] = [];
			await session.runner.add((api) => {
				api.on("tool_execution_end", (event) => {
					if (event.parentToolCallId) extensionSeen.push(event.toolCallId);
				});
			}, "observer");
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(textOf(result)).toBe("top/1:ok,top/2:ok,top/3:error,top/4:error");
			expect(echo.calls).toEqual(["a"]);
			expect(result?.nestedCalls?.complete).toBe(true);
			expect(result?.nestedCalls?.calls.map((call) => `${call.id}:${call.name}:${call.status}`)).toEqual([
				"top/1:echo:ok",
				"top/2:metered:ok",
				"top/3:echo:error",
				"top/4:orchestrate:error",
			]);
			expect(result?.nestedCalls?.calls[2]?.error).toContain("Validation failed");
			// model-only tools are not callable by other tools
			expect(result?.nestedCalls?.calls[3]?.error).toContain("not found");
			// the orchestrator's own usage (2) plus the nested usage (15)
			expect(result?.usage?.totalTokens).toBe(17);
			const nestedStarts = events.filter(
				(event) => event.type === "tool_execution_start" && event.parentToolCallId === "top",
			);
			expect(nestedStarts).toHaveLength(4);
			expect(extensionSeen.sort()).toEqual(["top/1", "top/2", "top/3", "top/4"]);
			// nested calls are not transcript messages
			expect(toolResults(session.messages)).toHaveLength(1);
			await session.dispose();
		}));

	it("resolves a nested call blocked by a permission hook as an error outcome", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const orchestrate = orchestrator();
			const blocker: Extension = (api) => {
				api.on("tool_call", (event) =>
					event.parentToolCallId ? { block: true, reason: `nested ${event.toolName} blocked` } : undefined,
				);
			};
			const model = createFauxModel([
				{
					toolCalls: [{ id: "t", name: "orchestrate", arguments: { calls: [{ name: "echo", args: { text: "x" } }] } }],
				},
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition, orchestrate.definition],
				extensions: [blocker],
			});
			await session.prompt("go");
			expect(orchestrate.outcomes[0]?.isError).toBe(true);
			expect(textOf(orchestrate.outcomes[0]?.result)).toBe("nested echo blocked");
			expect(orchestrate.outcomes[0]?.blocked).toBe(true);
			const parent = session.messages.find((message) => message.role === "toolResult" && message.nestedCalls);
			expect(parent?.role === "toolResult" && parent.nestedCalls?.calls[0]).toMatchObject({ blocked: true });
			expect(echo.calls).toEqual([]);
			await session.dispose();
		}));

	it("runs nested calls to a sequential tool one at a time, even from parallel callers", () =>
		withTempDir(async (cwd) => {
			const slow = echoTool("slow", { executionMode: "sequential", delayMs: 30, exposure: "codemode" });
			const orchestrate = orchestrator({ parallel: true });
			const calls = [1, 2, 3].map((n) => ({ name: "slow", args: { text: String(n) } }));
			const model = createFauxModel([
				{
					toolCalls: [
						{ name: "orchestrate", arguments: { calls } },
						{ name: "orchestrate", arguments: { calls } },
					],
				},
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [slow.definition, orchestrate.definition],
			});
			await session.prompt("go");
			expect(slow.calls).toHaveLength(6);
			expect(slow.running.max).toBe(1);
			await session.dispose();
		}));

	it("gives grandchildren ids <caller>/<n>/<m> and records them on the model-issued call", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const inner = orchestrator({ name: "inner" });
			const innerDefinition = { ...inner.definition, exposure: "codemode" as const };
			const outer = orchestrator({ name: "outer" });
			const model = createFauxModel([
				{
					toolCalls: [
						{
							id: "root",
							name: "outer",
							arguments: { calls: [{ name: "inner", args: { calls: [{ name: "echo", args: { text: "deep" } }] } }] },
						},
					],
				},
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition, innerDefinition, outer.definition],
			});
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result?.nestedCalls?.calls.map((call) => call.id)).toEqual(["root/1", "root/1/1"]);
			expect(echo.calls).toEqual(["deep"]);
			await session.dispose();
		}));

	it("does not deadlock when a sequential session's nested call makes its own nested calls", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const inner = orchestrator({ name: "inner" });
			const outer = orchestrator({ name: "outer" });
			const model = createFauxModel([
				{
					toolCalls: [
						{
							name: "outer",
							arguments: { calls: [{ name: "inner", args: { calls: [{ name: "echo", args: { text: "z" } }] } }] },
						},
					],
				},
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				toolExecution: "sequential",
				customTools: [echo.definition, { ...inner.definition, exposure: "codemode" }, outer.definition],
			});
			await session.prompt("go");
			expect(echo.calls).toEqual(["z"]);
			await session.dispose();
		}));
});
