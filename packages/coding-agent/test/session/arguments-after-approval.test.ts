import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import { createFauxModel } from "@gantry/ai";
import { defineTool, type Extension, type ToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createAgentSession, loadTranscript } from "../../src/index.js";
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
			expect(result?.isError).toBe(true);
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
			expect(result?.isError).toBe(true);
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
			expect(result?.isError).toBe(false);
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
				expect(result?.isError).toBe(false);
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
			expect(result?.isError).toBe(true);
			expect(textOf(result)).toContain("kept changing");
			expect(echo.calls).toEqual([]);
		}));
});

describe("the transcript records the arguments that ran, once", () => {
	/** Records what it got and answers with its length only, so the result does not repeat the argument. */
	function lengthTool() {
		const calls: string[] = [];
		const definition = defineTool({
			name: "echo",
			label: "echo",
			description: "Measures text",
			parameters: Type.Object({ text: Type.String() }),
			annotations: { readOnlyHint: true },
			async execute(_id, params): Promise<AgentToolResult> {
				calls.push(params.text);
				return { content: [{ type: "text", text: String(params.text.length) }] };
			},
		});
		return { definition: definition as unknown as ToolDefinition, calls };
	}

	async function recordedRun(cwd: string, calls: { id: string; text: string }[], rewrite: Record<string, string>) {
		const echo = lengthTool();
		const model = createFauxModel([
			{ toolCalls: calls.map(({ id, text }) => ({ id, name: "echo", arguments: { text } })) },
			{ text: "ok" },
		]);
		const rewriter: Extension = (api) =>
			api.on("tool_call", (event) => {
				const replacement = rewrite[event.toolCallId];
				if (replacement !== undefined) event.input.text = replacement;
			});
		const sessionFile = join(cwd, "session.jsonl");
		const session = await createAgentSession({
			cwd,
			model,
			noTools: "all",
			customTools: [echo.definition],
			extensions: [rewriter],
			sessionFile,
		});
		await session.prompt("go");
		await session.dispose();
		const text = readFileSync(sessionFile, "utf8");
		const entries = text
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		return { echo, sessionFile, text, entries };
	}

	it("writes the arguments only in the assistant message when they ran unchanged, and the changed ones beside the result", () =>
		withTempDir(async (cwd) => {
			const { echo, sessionFile, entries } = await recordedRun(
				cwd,
				[
					{ id: "kept", text: "same" },
					{ id: "changed", text: "before" },
				],
				{ changed: "after" },
			);
			const results = entries.filter((entry) => entry.type === "message" && entry.message.role === "toolResult");
			expect(
				results.map((entry) => [
					entry.message.toolCallId,
					entry.executed,
					entry.executedArguments,
					entry.modelArguments,
				]),
			).toEqual([
				["kept", "as-called", undefined, undefined],
				["changed", "changed", { text: "after" }, undefined],
			]);
			expect(echo.calls).toEqual(["same", "after"]);
			const loaded = loadTranscript(sessionFile);
			expect(Object.fromEntries(loaded.executions)).toEqual({
				kept: { executedArguments: { text: "same" }, modelArguments: { text: "same" } },
				changed: { executedArguments: { text: "after" }, modelArguments: { text: "before" } },
			});
		}));

	it("stores a 1 MB argument once, and a 1 MB argument changed after approval once more, as it ran", () =>
		withTempDir(async (cwd) => {
			const big = `big-${"x".repeat(1024 * 1024)}`;
			const changedTo = `changed-${"y".repeat(1024 * 1024)}`;
			const { echo, sessionFile, text } = await recordedRun(
				cwd,
				[
					{ id: "big", text: big },
					{ id: "rewritten", text: "small" },
				],
				{ rewritten: changedTo },
			);
			expect(echo.calls).toEqual([big, changedTo]);
			expect(text.split(big).length - 1).toBe(1);
			expect(text.split(changedTo).length - 1).toBe(1);
			// Both big strings once each, plus the rest of the file (far less than another megabyte).
			expect(text.length).toBeLessThan(big.length + changedTo.length + 64 * 1024);
			const loaded = loadTranscript(sessionFile);
			expect(loaded.executions.get("big")).toEqual({ executedArguments: { text: big }, modelArguments: { text: big } });
			expect(loaded.executions.get("rewritten")).toEqual({
				executedArguments: { text: changedTo },
				modelArguments: { text: "small" },
			});
		}));

	it("reads the older format, which wrote the executed arguments on every result", () =>
		withTempDir(async (cwd) => {
			const file = join(cwd, "old.jsonl");
			const header = { type: "session", version: 1, id: "x", cwd, createdAt: new Date().toISOString() };
			const assistant = {
				role: "assistant",
				content: [
					{ type: "toolCall", id: "a", name: "echo", arguments: { text: "one" } },
					{ type: "toolCall", id: "b", name: "echo", arguments: { text: "two" } },
				],
			};
			const result = (id: string) => ({
				role: "toolResult",
				toolCallId: id,
				toolName: "echo",
				content: [],
				isError: false,
			});
			const lines = [
				header,
				{ type: "message", message: assistant },
				{ type: "message", message: result("a"), executedArguments: { text: "one" } },
				{ type: "message", message: result("b"), executedArguments: { text: "2" }, modelArguments: { text: "two" } },
			];
			writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
			expect(Object.fromEntries(loadTranscript(file).executions)).toEqual({
				a: { executedArguments: { text: "one" }, modelArguments: { text: "one" } },
				b: { executedArguments: { text: "2" }, modelArguments: { text: "two" } },
			});
		}));
});
