import { createFauxModel, type Message } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, GantryAgentError } from "../src/index.js";
import { makeTool, resultText, sleep, text, toolResults, userMessage } from "./helpers.js";

const roles = (agent: Agent) => agent.state.messages.map((message) => (message as Message).role);

describe("Agent", () => {
	it("runs a prompt, keeps the transcript and reports isStreaming", async () => {
		const observed: boolean[] = [];
		const agent = new Agent({
			initialState: {
				systemPrompt: "Be brief.",
				model: createFauxModel([{ toolCalls: [{ name: "probe", arguments: {} }] }, { text: "done" }]),
			},
		});
		agent.state.tools = [
			makeTool("probe", async () => {
				observed.push(agent.state.isStreaming);
				return text("ok");
			}),
		];
		const running = agent.prompt("hello");
		expect(agent.state.isStreaming).toBe(true);
		await running;
		expect(agent.state.isStreaming).toBe(false);
		expect(observed).toEqual([true]);
		expect(roles(agent)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(agent.state.messages[0]).toMatchObject({ role: "user", content: "hello" });
	});

	it("awaits async listeners in subscription order, one event at a time, and can unsubscribe", async () => {
		const log: string[] = [];
		const agent = new Agent({ initialState: { model: createFauxModel([{ text: "a" }, { text: "b" }]) } });
		agent.subscribe(async (event) => {
			if (event.type !== "agent_start" && event.type !== "agent_end") return;
			log.push(`slow:${event.type}:begin`);
			await sleep(10);
			log.push(`slow:${event.type}:end`);
		});
		const unsubscribe = agent.subscribe((event) => {
			if (event.type === "agent_start" || event.type === "agent_end") log.push(`fast:${event.type}`);
		});
		await agent.prompt("one");
		expect(log).toEqual([
			"slow:agent_start:begin",
			"slow:agent_start:end",
			"fast:agent_start",
			"slow:agent_end:begin",
			"slow:agent_end:end",
			"fast:agent_end",
		]);
		unsubscribe();
		log.length = 0;
		await agent.prompt("two");
		expect(log.filter((entry) => entry.startsWith("fast"))).toEqual([]);
	});

	it("awaits update events a listener is still handling before tool_execution_end", async () => {
		const log: string[] = [];
		const agent = new Agent({
			initialState: {
				model: createFauxModel([{ toolCalls: [{ name: "progress", arguments: {} }] }, { text: "ok" }]),
				tools: [
					makeTool("progress", async (_id, _params, _signal, onUpdate) => {
						onUpdate?.(text("half"));
						return text("whole");
					}),
				],
			},
		});
		agent.subscribe(async (event) => {
			if (event.type === "tool_execution_update") {
				await sleep(20);
				log.push(`update handled: ${resultText(event.partialResult)}`);
			}
			if (event.type === "tool_execution_end") log.push("end");
		});
		await agent.prompt("go");
		expect(log).toEqual(["update handled: half", "end"]);
	});

	it("tracks running tool calls in pendingToolCalls", async () => {
		const seen: string[][] = [];
		const agent = new Agent({
			initialState: {
				model: createFauxModel([
					{
						toolCalls: [
							{ id: "a", name: "wait", arguments: { ms: 5 } },
							{ id: "b", name: "wait", arguments: { ms: 30 } },
						],
					},
					{ text: "ok" },
				]),
			},
		});
		agent.state.tools = [
			makeTool("wait", async (_id, params) => {
				await sleep(Number(params.ms));
				return text("ok");
			}),
		];
		agent.subscribe((event) => {
			if (event.type.startsWith("tool_execution")) seen.push([...agent.state.pendingToolCalls].sort());
		});
		await agent.prompt("go");
		expect(seen).toEqual([["a"], ["a", "b"], ["b"], []]);
		expect(agent.state.pendingToolCalls.size).toBe(0);
	});

	it("applies an assignment to state.tools at the next model request", async () => {
		const model = createFauxModel([{ toolCalls: [{ name: "enable", arguments: {} }] }, { text: "ok" }]);
		const agent = new Agent({ initialState: { model } });
		const extra = makeTool("extra", async () => text("extra"));
		const enable = makeTool("enable", async () => {
			agent.state.tools = [enable, extra];
			return text("enabled");
		});
		agent.state.tools = [enable];
		await agent.prompt("go");
		expect(model.calls.map((call) => call.tools?.map((tool) => tool.name))).toEqual([["enable"], ["enable", "extra"]]);
	});

	it("sets error from a failed assistant message and clears it on the next run", async () => {
		const agent = new Agent({
			initialState: {
				model: createFauxModel([{ text: "", stopReason: "error", errorMessage: "rate limited" }, { text: "ok" }]),
			},
		});
		await agent.prompt("first");
		expect(agent.state.error).toBe("rate limited");
		await agent.prompt("second");
		expect(agent.state.error).toBeUndefined();
	});

	it("abort() stops the run: running tools see the signal and the prompt resolves", async () => {
		const agent = new Agent({
			initialState: {
				model: createFauxModel([{ toolCalls: [{ name: "hang", arguments: {} }] }, { text: "never" }]),
				tools: [
					makeTool("hang", async (_id, _params, signal, onUpdate) => {
						onUpdate?.(text("started"));
						await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
						throw new Error("interrupted");
					}),
				],
			},
		});
		agent.subscribe((event) => {
			if (event.type === "tool_execution_update") agent.abort();
		});
		await agent.prompt("go");
		expect(resultText(toolResults(agent.state.messages)[0])).toBe("interrupted");
		expect(agent.state.isStreaming).toBe(false);
	});

	it("abort() during a model request ends with an aborted message and sets error", async () => {
		const agent = new Agent({
			initialState: { model: createFauxModel([{ text: "a long answer ".repeat(20) }], { delayMs: 5 }) },
		});
		agent.subscribe((event) => {
			if (event.type === "message_update") agent.abort();
		});
		await agent.prompt("go");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(agent.state.error).toBeTypeOf("string");
	});

	it("waitForIdle resolves once the run and its listeners are done", async () => {
		const agent = new Agent({ initialState: { model: createFauxModel([{ text: "ok" }]) } });
		let handled = false;
		agent.subscribe(async (event) => {
			if (event.type === "agent_end") {
				await sleep(10);
				handled = true;
			}
		});
		void agent.prompt("go");
		await agent.waitForIdle();
		expect(handled).toBe(true);
		await expect(agent.waitForIdle()).resolves.toBeUndefined();
	});

	it("steer() injects a message after the current tool calls; followUp() adds a turn when it would stop", async () => {
		const model = createFauxModel([
			{ toolCalls: [{ name: "step", arguments: {} }] },
			{ text: "steered" },
			{ text: "followed up" },
		]);
		const agent = new Agent({ initialState: { model } });
		agent.state.tools = [
			makeTool("step", async () => {
				agent.steer(userMessage("change of plan"));
				agent.followUp(userMessage("one more thing"));
				return text("stepped");
			}),
		];
		await agent.prompt("go");
		expect(roles(agent)).toEqual(["user", "assistant", "toolResult", "user", "assistant", "user", "assistant"]);
		expect(agent.state.messages[3]).toMatchObject({ content: "change of plan" });
		expect(agent.state.messages[5]).toMatchObject({ content: "one more thing" });
	});

	it("clearQueues() drops queued steering and follow-up messages", async () => {
		const agent = new Agent({ initialState: { model: createFauxModel([{ text: "ok" }]) } });
		agent.steer(userMessage("steer"));
		agent.followUp(userMessage("follow"));
		agent.clearQueues();
		await agent.prompt("go");
		expect(roles(agent)).toEqual(["user", "assistant"]);
	});

	it("joins a steering message queued while idle to the next run, after its prompt", async () => {
		const model = createFauxModel([{ text: "ok" }]);
		const agent = new Agent({ initialState: { model } });
		agent.steer(userMessage("also check the tests"));
		await agent.prompt("review this");
		expect(model.calls[0]?.messages.map((message) => message.content)).toEqual(["review this", "also check the tests"]);
	});

	it("rejects a second prompt while running, and continue() without anything to continue", async () => {
		const agent = new Agent({ initialState: { model: createFauxModel([{ text: "ok" }, { text: "again" }]) } });
		await expect(agent.continue()).rejects.toMatchObject({ code: "nothing_to_continue" });
		const running = agent.prompt("go");
		await expect(agent.prompt("again")).rejects.toBeInstanceOf(GantryAgentError);
		await expect(agent.prompt("again")).rejects.toMatchObject({ code: "agent_busy" });
		await running;
		await expect(agent.continue()).rejects.toMatchObject({ code: "cannot_continue" });
		agent.followUp(userMessage("queued"));
		await agent.continue();
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant" });
		expect(agent.state.messages.at(-2)).toMatchObject({ content: "queued" });
	});

	it("continue() retries from a transcript that ends with a user message", async () => {
		const agent = new Agent({
			initialState: { model: createFauxModel([{ text: "answer" }]), messages: [userMessage("question")] },
		});
		await agent.continue();
		expect(roles(agent)).toEqual(["user", "assistant"]);
	});

	it("reports a throwing listener and goes on", async () => {
		const failures: [unknown, AgentEvent["type"]][] = [];
		const agent = new Agent({
			initialState: { model: createFauxModel([{ text: "ok" }]) },
			onListenerError: (error, event) => failures.push([error, event.type]),
		});
		agent.subscribe((event) => {
			if (event.type === "agent_start") throw new Error("listener bug");
		});
		await agent.prompt("go");
		expect(failures).toHaveLength(1);
		expect(failures[0]?.[1]).toBe("agent_start");
		expect(roles(agent)).toEqual(["user", "assistant"]);
	});

	it("rejects with missing_model when no model is set", async () => {
		await expect(new Agent().prompt("go")).rejects.toMatchObject({ code: "missing_model" });
	});
});
