import type { ToolCall } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { validateToolArguments } from "../src/index.js";
import { makeTool, text } from "./helpers.js";

const editTool = makeTool("edit", async () => text("ok"), {
	parameters: Type.Object({
		path: Type.String(),
		count: Type.Number(),
		note: Type.Optional(Type.String()),
		options: Type.Optional(
			Type.Object({ dryRun: Type.Optional(Type.Boolean()), depth: Type.Optional(Type.Integer({ default: 1 })) }),
		),
	}),
});

function call(argumentsValue: Record<string, unknown>, extra: Partial<ToolCall> = {}): ToolCall {
	return { type: "toolCall", id: "call_1", name: "edit", arguments: argumentsValue, ...extra };
}

describe("validateToolArguments", () => {
	it("coerces obvious mismatches into a copy and leaves the tool call as the model sent it", () => {
		const toolCall = call({ path: "a.txt", count: "42" });
		const args = validateToolArguments(editTool, toolCall);
		expect(args).toEqual({ path: "a.txt", count: 42 });
		expect(toolCall.arguments).toEqual({ path: "a.txt", count: "42" });
	});

	it("treats null for an optional property as absent, also in nested objects, and fills defaults", () => {
		const args = validateToolArguments(
			editTool,
			call({ path: "a.txt", count: 1, note: null, options: { dryRun: null, depth: null } }),
		);
		expect(args).toEqual({ path: "a.txt", count: 1, options: { depth: 1 } });
	});

	it("keeps null where the schema allows it", () => {
		const tool = makeTool("pick", async () => text("ok"), {
			parameters: Type.Object({ choice: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
		});
		expect(validateToolArguments(tool, call({ choice: null }, { name: "pick" }))).toEqual({ choice: null });
	});

	it("lists every error with its path, then the received arguments", () => {
		const toolCall = call({ count: "many", options: { depth: 1.5 }, extra: true });
		expect(() => validateToolArguments(editTool, toolCall)).toThrow(
			[
				'Validation failed for tool "edit":',
				"  - path: must have required property 'path'",
				"  - count: must be number",
				"  - options.depth: must be integer",
				"",
				"Received arguments:",
				JSON.stringify({ count: "many", options: { depth: 1.5 }, extra: true }, null, 2),
			].join("\n"),
		);
	});

	it("reports a provider's unparseable arguments as a validation failure", () => {
		const toolCall = call({}, { argumentsError: "Unexpected end of JSON input" });
		expect(() => validateToolArguments(editTool, toolCall)).toThrow(
			'Validation failed for tool "edit":\n  - root: Unexpected end of JSON input\n\nReceived arguments:\n{}',
		);
	});

	it("validates repeatedly against the same schema object", () => {
		for (let round = 0; round < 3; round++) {
			expect(validateToolArguments(editTool, call({ path: `${round}.txt`, count: round }))).toEqual({
				path: `${round}.txt`,
				count: round,
			});
		}
	});
});

describe("validateToolArguments with unions", () => {
	const tool = makeTool("pick", async () => text("ok"), {
		parameters: Type.Object({
			choice: Type.Optional(Type.Union([Type.String(), Type.Null()])),
			label: Type.Union([Type.Number(), Type.String()]),
			count: Type.Optional(Type.Number()),
		}),
	});

	it("keeps a value that is valid as sent instead of coercing it into the first branch", () => {
		const toolCall: ToolCall = { type: "toolCall", id: "c", name: "pick", arguments: { label: "42", choice: null } };
		expect(validateToolArguments(tool, toolCall)).toEqual({ label: "42", choice: null });
	});

	it("keeps an allowed null even when another property needs coercion", () => {
		const toolCall: ToolCall = {
			type: "toolCall",
			id: "c",
			name: "pick",
			arguments: { label: "x", choice: null, count: "3" },
		};
		expect(validateToolArguments(tool, toolCall)).toEqual({ label: "x", choice: null, count: 3 });
	});
});
