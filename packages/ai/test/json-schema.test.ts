import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	GantryAiError,
	makeStrictJsonSchema,
	toPlainJsonSchema,
	UnsupportedStrictJsonSchemaError,
} from "../src/index.js";

function strictError(schema: object): UnsupportedStrictJsonSchemaError {
	try {
		makeStrictJsonSchema(schema);
	} catch (error) {
		if (error instanceof UnsupportedStrictJsonSchemaError) return error;
		throw error;
	}
	throw new Error("makeStrictJsonSchema did not throw");
}

describe("toPlainJsonSchema", () => {
	it("drops TypeBox's symbol keys and copies deeply", () => {
		const schema = Type.Object({ path: Type.String() });
		const plain = toPlainJsonSchema(schema);
		expect(Object.getOwnPropertySymbols(schema).length).toBeGreaterThan(0);
		expect(Object.getOwnPropertySymbols(plain)).toEqual([]);
		expect(Object.getOwnPropertySymbols(plain.properties as object)).toEqual([]);
		expect(plain).toEqual({ type: "object", required: ["path"], properties: { path: { type: "string" } } });
		expect(plain.properties).not.toBe(schema.properties);
	});
});

describe("makeStrictJsonSchema", () => {
	it("makes optional properties required and nullable, and closes every object", () => {
		const schema = Type.Object({
			path: Type.String({ description: "File path" }),
			limit: Type.Optional(Type.Integer({ minimum: 1 })),
			options: Type.Optional(Type.Object({ recursive: Type.Boolean(), depth: Type.Optional(Type.Number()) })),
			tags: Type.Optional(Type.Array(Type.String())),
			mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("slow")])),
			kind: Type.Optional(Type.Literal("file")),
		});
		expect(makeStrictJsonSchema(schema)).toEqual({
			type: "object",
			properties: {
				path: { type: "string", description: "File path" },
				limit: { type: ["integer", "null"], minimum: 1 },
				options: {
					anyOf: [
						{
							type: "object",
							properties: { recursive: { type: "boolean" }, depth: { type: ["number", "null"] } },
							required: ["recursive", "depth"],
							additionalProperties: false,
						},
						{ type: "null" },
					],
				},
				tags: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
				mode: {
					anyOf: [{ type: "string", const: "fast" }, { type: "string", const: "slow" }, { type: "null" }],
				},
				kind: { anyOf: [{ type: "string", const: "file" }, { type: "null" }] },
			},
			required: ["path", "limit", "options", "tags", "mode", "kind"],
			additionalProperties: false,
		});
	});

	it("recurses into array items and keeps the description of a wrapped optional", () => {
		const schema = Type.Object({
			edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.Optional(Type.String()) })),
			note: Type.Optional(Type.Object({}, { description: "A note" })),
		});
		const strict = makeStrictJsonSchema(schema) as { properties: Record<string, unknown> };
		expect(strict.properties.edits).toEqual({
			type: "array",
			items: {
				type: "object",
				properties: { oldText: { type: "string" }, newText: { type: ["string", "null"] } },
				required: ["oldText", "newText"],
				additionalProperties: false,
			},
		});
		expect(strict.properties.note).toEqual({
			anyOf: [{ type: "object", properties: {}, required: [], additionalProperties: false }, { type: "null" }],
			description: "A note",
		});
	});

	it("drops keywords strict mode rejects and keeps the output plain JSON", () => {
		const schema = Type.Object({
			name: Type.String({ default: "x", minLength: 2, format: "uri-reference" }),
			when: Type.String({ format: "date-time", pattern: "^2" }),
		});
		const strict = makeStrictJsonSchema(schema) as { properties: Record<string, unknown> };
		expect(strict.properties.name).toEqual({ type: "string" });
		expect(strict.properties.when).toEqual({ type: "string", format: "date-time", pattern: "^2" });
		expect(JSON.parse(JSON.stringify(strict))).toEqual(strict);
		expect(Object.getOwnPropertySymbols(strict)).toEqual([]);
	});

	it("leaves an already nullable type alone", () => {
		const strict = makeStrictJsonSchema({
			type: "object",
			properties: { value: { type: ["string", "null"] } },
		}) as { properties: Record<string, unknown> };
		expect(strict.properties.value).toEqual({ type: ["string", "null"] });
	});

	it.each([
		["$ref", Type.Object({ item: Type.Ref("Item") }), "/properties/item/$ref"],
		[
			"oneOf",
			{ type: "object", properties: { a: { oneOf: [{ type: "string" }, { type: "number" }] } } },
			"/properties/a/oneOf",
		],
		["allOf", Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]), "/allOf"],
		[
			"patternProperties",
			Type.Object({ env: Type.Record(Type.String(), Type.String()) }),
			"/properties/env/patternProperties",
		],
		["not", Type.Object({ value: Type.Not(Type.String()) }), "/properties/value/not"],
		// Parsed from text: an object literal with a `then` key looks like a promise to linters.
		["if/then/else", JSON.parse('{"type":"object","if":{"required":["a"]},"then":{"required":["b"]}}'), "/if"],
		["else", { type: "object", properties: { a: { type: "string", else: { type: "number" } } } }, "/properties/a/else"],
		["tuple items", Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) }), "/properties/pair/items"],
		["prefixItems", { type: "array", prefixItems: [{ type: "string" }] }, "/prefixItems"],
		[
			"anyOf of objects",
			Type.Object({ shape: Type.Union([Type.Object({ r: Type.Number() }), Type.Object({ w: Type.Number() })]) }),
			"/properties/shape/anyOf/0",
		],
		["missing type", Type.Object({ anything: Type.Unknown() }), "/properties/anything"],
		["free-form additionalProperties", { type: "object", additionalProperties: true }, "/additionalProperties"],
		["array without items", { type: "object", properties: { list: { type: "array" } } }, "/properties/list"],
	])("rejects %s with the path of the construct", (_name, schema, path) => {
		const error = strictError(schema);
		expect(error).toBeInstanceOf(GantryAiError);
		expect(error.code).toBe("unsupported_strict_schema");
		expect(error.path).toBe(path);
		expect(error.message).toContain(path);
	});

	it("escapes property names in paths like a JSON pointer", () => {
		expect(strictError({ type: "object", properties: { "a/b": {} } }).path).toBe("/properties/a~1b");
	});
});
