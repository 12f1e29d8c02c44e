import { createFauxModel, type ToolCall } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type RunToolCallOptions, runToolCall, validateToolArguments } from "../src/index.js";
import { assistantMessageFor, makeTool, resultText, text } from "./helpers.js";

const model = createFauxModel([]);
const options = (overrides: Partial<RunToolCallOptions>): RunToolCallOptions => ({
	tools: [],
	assistantMessage: assistantMessageFor(model),
	context: { messages: [] },
	...overrides,
});
const callWith = (args: Record<string, unknown>): ToolCall => ({
	type: "toolCall",
	id: "c1",
	name: "shell",
	arguments: args,
});

describe("arguments are own plain data end to end", () => {
	const required = Type.Object({ command: Type.String() });
	const optional = Type.Object({ command: Type.Optional(Type.String()) });

	it("does not let a parsed __proto__ key supply a required property", async () => {
		const ran: unknown[] = [];
		const shell = makeTool(
			"shell",
			async (_id, params) => {
				ran.push(params);
				return text("ran");
			},
			{ parameters: required },
		);
		const args = JSON.parse('{"__proto__":{"command":"touch F"}}');
		const outcome = await runToolCall(callWith(args), options({ tools: [shell] }));
		expect(outcome.isError).toBe(true);
		expect(resultText(outcome.result)).toContain("command");
		expect(ran).toEqual([]);
	});

	it("keeps __proto__, constructor and prototype keys as data; the hook sees exactly what execute gets", async () => {
		const seen: string[] = [];
		let executed: Record<string, unknown> | undefined;
		const shell = makeTool(
			"shell",
			async (_id, params) => {
				executed = params as Record<string, unknown>;
				return text(String((params as { command?: unknown }).command));
			},
			{ parameters: optional },
		);
		const args = JSON.parse(
			'{"__proto__":{"command":"touch F"},"constructor":{"prototype":{"command":"x"}},"prototype":1}',
		);
		const outcome = await runToolCall(
			callWith(args),
			options({
				tools: [shell],
				beforeToolCall: async ({ args: hookArgs }) => {
					seen.push(JSON.stringify(hookArgs));
					expect((hookArgs as { command?: unknown }).command).toBeUndefined();
					return undefined;
				},
			}),
		);
		expect(resultText(outcome.result)).toBe("undefined");
		expect(executed?.command).toBeUndefined();
		expect(Object.getPrototypeOf(executed)).toBe(Object.prototype);
		expect(Object.keys(executed ?? {}).sort()).toEqual(["__proto__", "constructor", "prototype"]);
		expect(seen).toEqual([JSON.stringify(executed)]);
		expect(seen[0]).toContain('"__proto__":{"command":"touch F"}');
	});

	it("rejects arguments whose values inherit properties (nested callers can pass any object)", () => {
		const shell = makeTool("shell", async () => text("ran"), { parameters: required });
		const sneaky = Object.create({ command: "touch F" }) as Record<string, unknown>;
		expect(() => validateToolArguments(shell, callWith(sneaky))).toThrow(/root: must be plain JSON data/);
		const dated = { command: "ls", when: new Date(0) };
		expect(() => validateToolArguments(shell, callWith(dated))).toThrow(/when: must be plain JSON data \(got a Date\)/);
	});
});
