import { createFauxModel, type ToolCall } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { type RunToolCallOptions, runToolCall } from "../src/index.js";
import { assistantMessageFor, makeTool, resultText, text } from "./helpers.js";

const model = createFauxModel([]);

function options(overrides: Partial<RunToolCallOptions> = {}): RunToolCallOptions {
	return { tools: [], assistantMessage: assistantMessageFor(model), context: { messages: [] }, ...overrides };
}

const call = (name: string): ToolCall => ({ type: "toolCall", id: "call_1", name, arguments: {} });

describe("resolveTool: the call-time lookup", () => {
	it("runs the tool the resolver returns instead of the declared one", async () => {
		const declared = makeTool("t", async () => text("old"));
		const current = makeTool("t", async () => text("new"));
		const seen: unknown[] = [];
		const outcome = await runToolCall(
			call("t"),
			options({
				tools: [declared],
				resolveTool: (name, found) => {
					seen.push([name, found === declared]);
					return current;
				},
			}),
		);
		expect(seen).toEqual([["t", true]]);
		expect(resultText(outcome.result)).toBe("new");
	});

	it("answers with the resolver's text, or 'not found', and never runs a hook then", async () => {
		const declared = makeTool("t", async () => text("ran"));
		let hooks = 0;
		const beforeToolCall = async () => {
			hooks++;
			return undefined;
		};
		const gone = await runToolCall(
			call("t"),
			options({ tools: [declared], beforeToolCall, resolveTool: () => "Tool t is no longer available: gone" }),
		);
		expect(gone.isError).toBe(true);
		expect(resultText(gone.result)).toBe("Tool t is no longer available: gone");
		const missing = await runToolCall(
			call("t"),
			options({ tools: [declared], beforeToolCall, resolveTool: () => undefined }),
		);
		expect(resultText(missing.result)).toBe("Tool t not found");
		const throwing = await runToolCall(
			call("t"),
			options({
				tools: [declared],
				beforeToolCall,
				resolveTool: () => {
					throw new Error("registry broke");
				},
			}),
		);
		expect(resultText(throwing.result)).toBe("registry broke");
		expect(hooks).toBe(0);
	});
});
