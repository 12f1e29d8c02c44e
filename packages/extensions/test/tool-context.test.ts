import type { AgentTool, AgentToolCallOutcome } from "@gantry/agent";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { type ExecuteToolOptions, ExtensionRunner, wrapToolDefinition } from "../src/index.js";
import { firstText, textTool } from "./helpers.js";

describe("createToolContext", () => {
	it("carries cwd, model, UI flag and signal", () => {
		const model = createFauxModel([]);
		const runner = new ExtensionRunner({ cwd: "/project", model });
		const controller = new AbortController();
		const context = runner.createToolContext("call_1", controller.signal);
		expect(context.cwd).toBe("/project");
		expect(context.model).toBe(model);
		expect(context.hasUI).toBe(false);
		expect(context.signal).toBe(controller.signal);
	});

	it("resolves nested calls to an isError outcome until a session binds the runner", async () => {
		const runner = new ExtensionRunner({ cwd: "/project" });
		const context = runner.createToolContext("call_7");
		expect(context.tools).toEqual([]);
		const outcome = await context.executeTool("read", { path: "a.txt" });
		expect(outcome.isError).toBe(true);
		expect(outcome.result.isError).toBe(true);
		expect(outcome.toolCall).toMatchObject({ id: "call_7/1", name: "read", arguments: { path: "a.txt" } });
		expect(firstText(outcome.result)).toBe(
			"Tool read was not run: nested tool calls are not available until a session binds the extension runner",
		);
	});

	it("reaches the bound host's tools, even from a context created before binding", async () => {
		const runner = new ExtensionRunner({ cwd: "/project" });
		const early = runner.createToolContext("call_2");
		const tools: AgentTool[] = [wrapToolDefinition(textTool("echo"))];
		const received: { callerId: string; name: string; args: unknown; options: ExecuteToolOptions }[] = [];
		runner.setToolHost({
			getCallableTools: () => tools,
			executeTool: async (caller, name, args, options): Promise<AgentToolCallOutcome> => {
				received.push({ callerId: caller.id, name, args, options });
				return {
					toolCall: { type: "toolCall", id: caller.child().id, name, arguments: {} },
					result: { content: [{ type: "text", text: "done" }] },
					isError: false,
				};
			},
		});
		expect(early.tools.map((tool) => tool.name)).toEqual(["echo"]);
		const outcome = await early.executeTool("echo", { value: 1 });
		expect(outcome.isError).toBe(false);
		expect(received).toMatchObject([{ callerId: "call_2", name: "echo", args: { value: 1 } }]);
	});

	it("passes the caller's signal by default and the nested call's own signal when given", async () => {
		const runner = new ExtensionRunner({ cwd: "/project" });
		const signals: (AbortSignal | undefined)[] = [];
		runner.setToolHost({
			getCallableTools: () => [],
			executeTool: async (_callerId, name, _args, options) => {
				signals.push(options.signal);
				return {
					toolCall: { type: "toolCall", id: "x", name, arguments: {} },
					result: { content: [] },
					isError: false,
				};
			},
		});
		const callerSignal = new AbortController().signal;
		const ownSignal = new AbortController().signal;
		const context = runner.createToolContext("call_3", callerSignal);
		await context.executeTool("a", {});
		await context.executeTool("b", {}, { signal: ownSignal });
		expect(signals).toEqual([callerSignal, ownSignal]);
	});

	it("turns a host that rejects into an isError outcome", async () => {
		const runner = new ExtensionRunner({ cwd: "/project" });
		runner.setToolHost({
			getCallableTools: () => [],
			executeTool: async () => {
				throw new Error("host bug");
			},
		});
		const outcome = await runner.createToolContext("call_4").executeTool("read", {});
		expect(outcome.isError).toBe(true);
		expect(firstText(outcome.result)).toBe("Tool read failed: host bug");
	});
});
