import { type TSchema, Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	createOpenAICompatibleModel,
	GantryAiError,
	getModel,
	type Model,
	supportsStrictMode,
	type Tool,
	toolToJsonSchema,
} from "../src/index.js";

const openai = getModel("openai", "gpt-4.1-mini");
const anthropic = getModel("anthropic", "claude-haiku-4-5");
const local = createOpenAICompatibleModel({ baseUrl: "http://127.0.0.1:11434/v1", id: "qwen3:8b" });

const readParameters = Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) });
const strictRead = {
	type: "object",
	properties: { path: { type: "string" }, limit: { type: ["integer", "null"] } },
	required: ["path", "limit"],
	additionalProperties: false,
};
const plainRead = {
	type: "object",
	properties: { path: { type: "string" }, limit: { type: "integer" } },
	required: ["path"],
};

function tool(strict?: "prefer" | "require", parameters: TSchema = readParameters): Tool {
	return {
		name: "read",
		description: "Read a file",
		parameters,
		...(strict ? { constrainedSampling: { type: "json_schema" as const, strict } } : {}),
	};
}

describe("supportsStrictMode", () => {
	it("defaults to true for provider openai only, and follows model.compat", () => {
		const { compat: _compat, ...bare }: Model = openai;
		expect(supportsStrictMode(bare)).toBe(true);
		expect(supportsStrictMode({ ...bare, provider: "openrouter" })).toBe(false);
		expect(supportsStrictMode(anthropic)).toBe(false);
		expect(supportsStrictMode(local)).toBe(false);
		expect(supportsStrictMode({ ...local, compat: { supportsStrictMode: true } })).toBe(true);
	});
});

describe("toolToJsonSchema", () => {
	it("sends the plain schema without strict when the tool does not ask for it", () => {
		expect(toolToJsonSchema(tool(), openai)).toEqual({ parameters: plainRead, strict: false });
		expect(toolToJsonSchema({ ...tool(), constrainedSampling: false }, openai)).toEqual({
			parameters: plainRead,
			strict: false,
		});
	});

	it('sends the strict schema with strict: true for "prefer" and "require" where supported', () => {
		expect(toolToJsonSchema(tool("prefer"), openai)).toEqual({ parameters: strictRead, strict: true });
		expect(toolToJsonSchema(tool("require"), openai)).toEqual({ parameters: strictRead, strict: true });
	});

	it('falls back silently with "prefer" when the provider or the schema cannot do strict mode', () => {
		expect(toolToJsonSchema(tool("prefer"), local)).toEqual({ parameters: plainRead, strict: false });
		const record = Type.Object({ env: Type.Record(Type.String(), Type.String()) });
		const result = toolToJsonSchema(tool("prefer", record), openai);
		expect(result.strict).toBe(false);
		expect(result.parameters).toEqual(JSON.parse(JSON.stringify(record)));
	});

	it('throws naming the tool and the reason with "require"', () => {
		const record = Type.Object({ env: Type.Record(Type.String(), Type.String()) });
		expect(() => toolToJsonSchema(tool("require", record), openai)).toThrowError(
			/Tool "read" requires strict constrained sampling.*patternProperties.*\/properties\/env/,
		);
		expect(() => toolToJsonSchema(tool("require"), local)).toThrowError(GantryAiError);
		expect(() => toolToJsonSchema(tool("require"), local)).toThrowError(/Tool "read".*does not support strict mode/);
	});
});
