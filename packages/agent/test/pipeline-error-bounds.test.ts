import { createFauxModel, type ToolCall } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { MAX_ERROR_TEXT_CHARS, type RunToolCallOptions, runToolCall } from "../src/index.js";
import { assistantMessageFor, makeTool, resultText } from "./helpers.js";

const model = createFauxModel([]);
const huge = "p".repeat(5 * 1024 * 1024);

function options(overrides: Partial<RunToolCallOptions> = {}): RunToolCallOptions {
	return { tools: [], assistantMessage: assistantMessageFor(model), context: { messages: [] }, ...overrides };
}

const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({
	type: "toolCall",
	id: "call_1",
	name,
	arguments: args,
});

describe("the pipeline's own error texts are bounded", () => {
	const read = makeTool("read", async () => ({ content: [{ type: "text", text: "ok" }] }), {
		parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Number()) }),
	});
	const cases: [string, () => Promise<string>][] = [
		["an unknown 5 MB tool name", async () => resultText((await runToolCall(call(huge), options())).result)],
		[
			"a 5 MB string passed as offset",
			async () =>
				resultText((await runToolCall(call("read", { path: "a", offset: huge }), options({ tools: [read] }))).result),
		],
		[
			"a tool that throws a 5 MB message",
			async () => {
				const thrower = makeTool("thrower", async () => {
					throw new Error(`cannot open ${huge}: denied`);
				});
				return resultText((await runToolCall(call("thrower"), options({ tools: [thrower] }))).result);
			},
		],
		[
			"a blocking hook with a 5 MB reason",
			async () =>
				resultText(
					(
						await runToolCall(
							call("read", { path: "a" }),
							options({ tools: [read], beforeToolCall: async () => ({ block: true, reason: `no: ${huge}` }) }),
						)
					).result,
				),
		],
	];
	for (const [name, run] of cases) {
		it(name, async () => {
			const text = await run();
			expect(text.length).toBeLessThanOrEqual(MAX_ERROR_TEXT_CHARS);
			expect(text).toContain("characters elided");
		});
	}

	it("keeps the end of an error, where the reason usually is", async () => {
		const thrower = makeTool("thrower", async () => {
			throw new Error(`cannot open ${huge}: permission denied`);
		});
		const text = resultText((await runToolCall(call("thrower"), options({ tools: [thrower] }))).result);
		expect(text.startsWith("cannot open ppp")).toBe(true);
		expect(text.endsWith(": permission denied")).toBe(true);
	});
});
