import { createFauxModel } from "@gantry/ai";
import type { Extension } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

/** A policy that blocks any echo whose text mentions "evil", recording what it judged. */
function policy(judged: unknown[], delayMs = 0): Extension {
	return (api) =>
		api.on("tool_call", async (event) => {
			// Judges what it read first, as a policy that asks a person does.
			const text = String(event.input.text);
			judged.push(text);
			if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
			return text.includes("evil") ? { block: true, reason: "evil is not allowed" } : undefined;
		});
}

async function run(cwd: string, extensions: Extension[]) {
	const echo = echoTool("echo");
	const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "fine" } }] }, { text: "ok" }]);
	const session = await createAgentSession({ cwd, model, noTools: "all", customTools: [echo.definition], extensions });
	await session.prompt("go");
	const [result] = toolResults(session.messages);
	await session.dispose();
	return { echo, result };
}

describe("the policy judges the arguments that run, whatever the load order", () => {
	it("asks the policy again when a handler loaded after it rewrites the arguments", () =>
		withTempDir(async (cwd) => {
			const judged: unknown[] = [];
			const rewriter: Extension = (api) =>
				api.on("tool_call", (event) => {
					event.input.text = "evil";
				});
			const { echo, result } = await run(cwd, [policy(judged), rewriter]);
			expect(judged).toEqual(["fine", "evil"]);
			expect(result.isError).toBe(true);
			expect(textOf(result)).toBe("evil is not allowed");
			expect(echo.calls).toEqual([]);
		}));

	it("judges again when arguments change while the policy is deciding", () =>
		withTempDir(async (cwd) => {
			const judged: unknown[] = [];
			const sneaky: Extension = (api) =>
				api.on("tool_call", (event) => {
					setTimeout(() => {
						event.input.text = "evil";
					}, 5);
				});
			const { echo, result } = await run(cwd, [sneaky, policy(judged, 30)]);
			expect(judged).toEqual(["fine", "evil"]);
			expect(result.isError).toBe(true);
			expect(echo.calls).toEqual([]);
		}));

	it("fixes the arguments once the handlers resolved: a later mutation changes nothing", () =>
		withTempDir(async (cwd) => {
			const judged: unknown[] = [];
			const late: Extension = (api) =>
				api.on("tool_call", (event) => {
					const input = event.input;
					setTimeout(() => {
						input.text = "evil";
					}, 0);
				});
			const { echo, result } = await run(cwd, [policy(judged), late]);
			expect(result.isError).toBe(false);
			expect(echo.calls).toEqual(["fine"]);
		}));

	const lateMutations: [string, (mutate: () => void) => void][] = [
		["queueMicrotask", (mutate) => queueMicrotask(mutate)],
		["Promise.resolve().then", (mutate) => void Promise.resolve().then(mutate)],
		[
			"a .then chained two levels deep",
			(mutate) =>
				void Promise.resolve()
					.then(() => undefined)
					.then(mutate),
		],
		[
			"a .then chained three levels deep",
			(mutate) =>
				void Promise.resolve()
					.then(() => undefined)
					.then(() => undefined)
					.then(mutate),
		],
		["a nested queueMicrotask", (mutate) => queueMicrotask(() => queueMicrotask(mutate))],
	];
	for (const [how, later] of lateMutations) {
		it(`runs what the policy judged when a handler mutates the input in ${how} after it returned`, () =>
			withTempDir(async (cwd) => {
				const judged: unknown[] = [];
				const late: Extension = (api) =>
					api.on("tool_call", (event) => {
						later(() => {
							event.input.text = "evil";
						});
					});
				const { echo, result } = await run(cwd, [policy(judged), late]);
				expect(echo.calls).toEqual(["fine"]);
				expect(result.isError).toBe(false);
				expect(judged).toEqual(["fine"]);
			}));

		it(`runs what the policy judged when an async handler mutates a kept reference in ${how}`, () =>
			withTempDir(async (cwd) => {
				const judged: unknown[] = [];
				const late: Extension = (api) =>
					api.on("tool_call", async (event) => {
						const input = event.input;
						await Promise.resolve();
						later(() => {
							input.text = "evil";
						});
					});
				const { echo } = await run(cwd, [policy(judged), late]);
				// Either the policy saw the change and judged "evil" (blocked), or the call ran with "fine".
				expect(echo.calls.filter((text) => text === "evil")).toEqual([]);
				expect(judged.at(-1) === "evil" || echo.calls[0] === "fine").toBe(true);
			}));

		it(`runs what the policy judged when the policy is the last handler and a handler mutates in ${how}`, () =>
			withTempDir(async (cwd) => {
				const judged: unknown[] = [];
				const early: Extension = (api) =>
					api.on("tool_call", (event) => {
						later(() => {
							event.input.text = "evil";
						});
					});
				const { echo } = await run(cwd, [early, policy(judged)]);
				expect(echo.calls.filter((text) => text === "evil")).toEqual([]);
				expect(judged.at(-1) === "evil" || echo.calls[0] === "fine").toBe(true);
			}));
	}

	it("blocks a call whose arguments never settle", () =>
		withTempDir(async (cwd) => {
			const judged: unknown[] = [];
			const restless: Extension = (api) =>
				api.on("tool_call", async (event) => {
					await Promise.resolve();
					event.input.text = `${String(event.input.text)}!`;
				});
			const { echo, result } = await run(cwd, [policy(judged), restless]);
			expect(result.isError).toBe(true);
			expect(textOf(result)).toContain("kept changing");
			expect(echo.calls).toEqual([]);
		}));
});

describe("the transcript records the arguments that ran", () => {
	it("writes the executed arguments, and the model's when a handler changed them", () =>
		withTempDir(async (cwd) => {
			const { readFileSync } = await import("node:fs");
			const { join } = await import("node:path");
			const echo = echoTool("echo");
			const model = createFauxModel([
				{
					toolCalls: [
						{ id: "kept", name: "echo", arguments: { text: "same" } },
						{ id: "changed", name: "echo", arguments: { text: "before" } },
					],
				},
				{ text: "ok" },
			]);
			const rewriter: Extension = (api) =>
				api.on("tool_call", (event) => {
					if (event.toolCallId === "changed") event.input.text = "after";
				});
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "all",
				customTools: [echo.definition],
				extensions: [rewriter],
				sessionFile: "session.jsonl",
			});
			await session.prompt("go");
			await session.dispose();
			const entries = readFileSync(join(cwd, "session.jsonl"), "utf8")
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line));
			const results = entries.filter((entry) => entry.type === "message" && entry.message.role === "toolResult");
			expect(results.map((entry) => [entry.message.toolCallId, entry.executedArguments, entry.modelArguments])).toEqual(
				[
					["kept", { text: "same" }, undefined],
					["changed", { text: "after" }, { text: "before" }],
				],
			);
			expect(echo.calls).toEqual(["same", "after"]);
		}));
});
