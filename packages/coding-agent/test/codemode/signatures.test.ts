import { Type } from "@sinclair/typebox";
import { describe, expect, test } from "vitest";
import { formatToolSignature, schemaToTypeScript, toolAccessor, toolId } from "../../src/codemode/index.js";
import { formatListingSignature } from "../../src/codemode/signatures.js";

describe("toolId", () => {
	test("replaces every character not valid in an identifier with _", () => {
		expect(toolId("read")).toBe("read");
		expect(toolId("github-search")).toBe("github_search");
		expect(toolId("mcp.server/tool name")).toBe("mcp_server_tool_name");
		expect(toolId("$ok_1")).toBe("$ok_1");
		expect(toolId("9lives")).toBe("_9lives");
		expect(toolAccessor("read")).toBe("tools.read");
		expect(toolAccessor("github-search")).toBe('tools["github-search"]');
	});
});

describe("schemaToTypeScript", () => {
	test("turns JSON Schema into TypeScript-like types", () => {
		const schema = Type.Object({
			path: Type.String(),
			count: Type.Optional(Type.Integer()),
			mode: Type.Union([Type.Literal("fast"), Type.Literal("slow")]),
			tags: Type.Array(Type.String()),
			pairs: Type.Array(Type.Union([Type.String(), Type.Number()])),
			meta: Type.Record(Type.String(), Type.Boolean()),
			maybe: Type.Union([Type.String(), Type.Null()]),
			anything: Type.Unknown(),
			tuple: Type.Tuple([Type.String(), Type.Number()]),
			"odd-key": Type.Boolean(),
		});
		expect(schemaToTypeScript(schema)).toBe(
			'{ path: string; count?: number; mode: "fast" | "slow"; tags: string[]; pairs: (string | number)[]; meta: Record<string, boolean>; maybe: string | null; anything: unknown; tuple: [string, number]; "odd-key": boolean }',
		);
		expect(schemaToTypeScript({ type: ["string", "null"] })).toBe("string | null");
		expect(schemaToTypeScript({ enum: ["a", 1] })).toBe('"a" | 1');
		expect(schemaToTypeScript({ $ref: "#/definitions/Node" })).toBe("Node");
		expect(
			schemaToTypeScript({
				allOf: [
					{ type: "object", properties: { a: { type: "string" } }, required: ["a"] },
					{ type: "object", properties: { b: { type: "number" } } },
				],
			}),
		).toBe("{ a: string } & { b?: number }");
		expect(schemaToTypeScript({ type: "object", additionalProperties: false })).toBe("{}");
		expect(schemaToTypeScript({})).toBe("unknown");
	});
});

describe("formatToolSignature", () => {
	const tool = {
		name: "grep",
		parameters: Type.Object({
			pattern: Type.String({ description: "Regex to search for" }),
			path: Type.Optional(Type.String({ description: "Folder to search", default: "." })),
			options: Type.Optional(Type.Object({ context: Type.Object({ before: Type.Number(), after: Type.Number() }) })),
		}),
		outputSchema: Type.Object({ matches: Type.Array(Type.Object({ file: Type.String(), line: Type.Number() })) }),
	};

	test("shows parameters with their descriptions and the structured result type", () => {
		expect(formatToolSignature(tool, 10_000)).toEqual({
			text: [
				"tools.grep(args: {",
				"  pattern: string; // Regex to search for",
				'  path?: string; // Folder to search (default ".")',
				"  options?: { context: { before: number; after: number } };",
				"}): Promise<{ matches: { file: string; line: number }[] }>",
			].join("\n"),
		});
	});

	test("a tool without an output schema resolves to a string", () => {
		expect(formatToolSignature({ name: "ls", parameters: Type.Object({}) }, 1_000).text).toBe(
			"tools.ls(args: Record<string, unknown>): Promise<string>",
		);
	});

	test("a tight budget drops descriptions, then nested types, then all types, and says so", () => {
		const noDescriptions = formatToolSignature(tool, 170);
		expect(noDescriptions.leftOut).toBe("property descriptions");
		expect(noDescriptions.text).not.toContain("//");
		expect(noDescriptions.text).toContain("options?: { context: { before: number; after: number } }");
		const shallow = formatToolSignature(tool, 110);
		expect(shallow.leftOut).toBe("property descriptions and nested types");
		expect(shallow.text).toBe(
			"tools.grep(args: { pattern: string; path?: string; options?: object }): Promise<{ matches: object[] }>",
		);
		const bare = formatToolSignature(tool, 60);
		expect(bare.leftOut).toBe("the parameter and result types");
		expect(bare.text).toBe("tools.grep(args: object): Promise<object>");
		expect(formatToolSignature(tool, 20).text.length).toBeLessThanOrEqual(20);
	});
});

describe("formatListingSignature", () => {
	const tool = {
		name: "grep",
		parameters: Type.Object({
			pattern: Type.String({ description: "Regex to search for" }),
			mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("slow")])),
			options: Type.Optional(Type.Object({ context: Type.Object({ before: Type.Number() }) })),
		}),
		outputSchema: Type.Object({ matches: Type.Array(Type.Object({ file: Type.String() })) }),
	};

	test("one line without args: or Promise: names, types and enums, nested types two levels deep, → the result", () => {
		expect(formatListingSignature(tool, 1_000)).toEqual({
			text: 'tools.grep({ pattern: string; mode?: "fast" | "slow"; options?: { context: object } }) → { matches: { file: string }[] }',
		});
		expect(formatListingSignature({ name: "ls", parameters: Type.Object({ path: Type.String() }) }, 100).text).toBe(
			"tools.ls({ path: string })",
		);
	});

	test("with descriptions, parameters go on their own lines; a tight budget drops detail and says what", () => {
		expect(formatListingSignature(tool, 1_000, true).text).toBe(
			[
				"tools.grep({",
				"  pattern: string; // Regex to search for",
				'  mode?: "fast" | "slow";',
				"  options?: { context: { before: number } };",
				"}) → { matches: { file: string }[] }",
			].join("\n"),
		);
		expect(formatListingSignature(tool, 100, true).leftOut).toBe("property descriptions and nested types");
		expect(formatListingSignature(tool, 40).text).toBe("tools.grep(object) → object");
	});
});
