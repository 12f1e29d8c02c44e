import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ExtensionRunner, TOOL_NAME_PATTERN, type ToolDefinition } from "../src/index.js";
import { textTool } from "./helpers.js";

async function registerIn(source: string, definition: ToolDefinition): Promise<ExtensionRunner> {
	const runner = new ExtensionRunner({ cwd: "/work" });
	await runner.add((api) => api.registerTool(definition), source);
	return runner;
}

describe("registerTool validation", () => {
	it.each([
		["has spaces", "has spaces"],
		["empty", ""],
		["too long", "x".repeat(65)],
		["dotted", "mcp.read"],
	])("rejects a tool name that is %s, naming the extension", async (_case, name) => {
		const failing = registerIn("/ext/names.ts", textTool(name));
		await expect(failing).rejects.toThrow(/^Extension \/ext\/names\.ts: tool name .* is invalid/);
		await expect(failing).rejects.toMatchObject({ code: "invalid_tool", source: "/ext/names.ts" });
	});

	it("accepts names up to 64 letters, digits, underscores and dashes", async () => {
		const name = `a-b_C9${"x".repeat(58)}`;
		expect(name).toHaveLength(64);
		expect(TOOL_NAME_PATTERN.test(name)).toBe(true);
		const runner = await registerIn("ok.ts", textTool(name));
		expect(runner.getAllRegisteredTools().map((tool) => tool.name)).toEqual([name]);
	});

	it.each([
		["a string schema", Type.String()],
		["an array schema", Type.Array(Type.String())],
		["a plain object without type", { properties: {} }],
	])("rejects parameters that are %s", async (_case, parameters) => {
		const failing = registerIn("/ext/schema.ts", textTool("schema_tool", "s", { parameters: parameters as never }));
		await expect(failing).rejects.toThrow(
			'Extension /ext/schema.ts: tool "schema_tool" parameters must be an object schema (type: "object")',
		);
	});

	it("rejects a definition without execute or with an unknown exposure", async () => {
		await expect(registerIn("x.ts", textTool("no_execute", "n", { execute: undefined as never }))).rejects.toThrow(
			'tool "no_execute" has no execute function',
		);
		await expect(registerIn("x.ts", textTool("odd", "o", { exposure: "public" as never }))).rejects.toThrow(
			'tool "odd" has an unknown exposure "public"',
		);
	});
});
