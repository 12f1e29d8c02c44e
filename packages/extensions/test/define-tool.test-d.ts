import type { AgentTool } from "@gantry/agent";
import { Type } from "@sinclair/typebox";
import { describe, expectTypeOf, it } from "vitest";
import { defineTool, type ExtensionAPI, type ToolDefinition, wrapToolDefinition } from "../src/index.js";

const searchSchema = Type.Object({
	query: Type.String(),
	limit: Type.Optional(Type.Number()),
	mode: Type.Union([Type.Literal("fast"), Type.Literal("exact")]),
});

describe("defineTool", () => {
	it("infers execute's params from parameters", () => {
		defineTool({
			name: "search",
			label: "Search",
			description: "Searches",
			parameters: searchSchema,
			async execute(_toolCallId, params) {
				expectTypeOf(params).toEqualTypeOf<{ query: string; limit?: number; mode: "fast" | "exact" }>();
				expectTypeOf(params.query).toBeString();
				// @ts-expect-error: `missing` is not a parameter
				params.missing;
				return { content: [] };
			},
		});
	});

	it("infers renderCall's args and the details type of results", () => {
		const tool = defineTool({
			name: "count",
			label: "Count",
			description: "Counts",
			parameters: Type.Object({ text: Type.String() }),
			async execute(_id, params) {
				return { content: [], details: { words: params.text.length } };
			},
			renderCall(args) {
				expectTypeOf(args.text).toBeString();
				return args.text;
			},
			renderResult(result) {
				expectTypeOf(result.details).toEqualTypeOf<{ words: number } | undefined>();
				return "";
			},
		});
		expectTypeOf(tool).toExtend<ToolDefinition>();
		expectTypeOf(wrapToolDefinition(tool)).toExtend<AgentTool>();
	});

	it("rejects an execute that uses params with the wrong types", () => {
		defineTool({
			name: "wrong",
			label: "Wrong",
			description: "Wrong",
			parameters: Type.Object({ count: Type.Number() }),
			async execute(_id, params) {
				// @ts-expect-error: count is a number, not a string
				const text: string = params.count;
				return { content: [{ type: "text", text }] };
			},
		});
	});

	it("lets a defined tool be registered", () => {
		const register = (api: ExtensionAPI) =>
			api.registerTool(
				defineTool({
					name: "ok",
					label: "Ok",
					description: "Ok",
					parameters: Type.Object({ flag: Type.Boolean() }),
					execute: async (_id, params) => ({ content: [{ type: "text", text: String(params.flag) }] }),
				}),
			);
		expectTypeOf(register).returns.toBeVoid();
	});
});
