import { readFileSync } from "node:fs";
import type { AgentTool, AgentToolCallOutcome } from "@gantry/agent";
import type { ExtensionToolContext, ToolExposure, ToolLoadout } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type CodemodeToolOptions, createCodemodeToolDefinition } from "../../src/codemode/index.js";
import { createTestHost, makeTempDir, makeTool, standardTools, type TestTool } from "./fixtures.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
	temp = makeTempDir();
});
afterEach(() => temp.remove());

const directTool = makeTool("read_file", "Read a file.", Type.Object({ path: Type.String() }), async () => ({
	content: [{ type: "text", text: "file body" }],
}));
const searchTool = makeTool("tool_search", "Search tools.", Type.Object({ query: Type.String() }), async () => ({
	content: [{ type: "text", text: "" }],
}));

function registry(): TestTool[] {
	return [...standardTools(), { tool: directTool, exposure: "direct" }, { tool: searchTool, exposure: "model-only" }];
}

/** A loadout as a session would build it: `active` names are declared; callable = codemode/deferred + active direct. */
function makeLoadout(tools: TestTool[], active: string[]): ToolLoadout {
	const exposureOf = (name: string) => tools.find((entry) => entry.tool.name === name)?.exposure ?? "direct";
	const registered = tools.map((entry) => entry.tool);
	const declared = registered.filter((tool) => active.includes(tool.name));
	const callable = registered.filter((tool) => {
		const exposure = exposureOf(tool.name);
		return exposure === "codemode" || exposure === "deferred" || (exposure === "direct" && active.includes(tool.name));
	});
	return {
		declared,
		callable,
		registered,
		getExposure: (name) => (registered.some((tool) => tool.name === name) ? exposureOf(name) : undefined),
		getNamespace: (name) => tools.find((entry) => entry.tool.name === name)?.namespace,
		getPromptGuidelines: () => [],
	};
}

/** A tool context whose executeTool runs the real tools, blocking the names in `blocked` like a permission hook. */
function makeContext(tools: TestTool[], callable: readonly AgentTool[], blocked: string[] = []): ExtensionToolContext {
	const host = createTestHost(tools);
	return {
		cwd: temp.path,
		hasUI: false,
		tools: callable,
		async executeTool(name, args, options): Promise<AgentToolCallOutcome> {
			if (blocked.includes(name)) {
				return {
					toolCall: { type: "toolCall", id: "parent/1", name, arguments: args as Record<string, unknown> },
					result: { content: [{ type: "text", text: `Blocked by policy: ${name}` }] },
					isError: true,
				};
			}
			return host.call(name, args, options?.signal ?? new AbortController().signal);
		},
	};
}

const catalogFor = (tools: TestTool[]) => (name: string) => {
	const entry = tools.find((candidate) => candidate.tool.name === name);
	return entry ? { exposure: (entry.exposure ?? "direct") as ToolExposure } : undefined;
};

function definition(options: Partial<CodemodeToolOptions> = {}) {
	const tools = registry();
	return createCodemodeToolDefinition({ tempDir: temp.path, catalog: catalogFor(tools), ...options });
}

describe("the codemode tool definition", () => {
	test("is model-only, inactive until named, takes { code }, and leaves executionMode unset", () => {
		const tool = definition();
		expect(tool.name).toBe("codemode");
		expect(tool.exposure).toBe("model-only");
		expect(tool.defaultActive).toBe(false);
		expect(tool.executionMode).toBeUndefined();
		expect(Object.keys(tool.parameters.properties)).toEqual(["code"]);
		expect(tool.parameters.required).toEqual(["code"]);
	});

	test("rejects a bad mode or limit when created", () => {
		expect(() => createCodemodeToolDefinition({ tempDir: temp.path, mode: "off" as "on" })).toThrow(
			expect.objectContaining({ name: "CodingAgentError", code: "invalid_option" }),
		);
		expect(() => createCodemodeToolDefinition({ tempDir: temp.path, timeoutMs: 0 })).toThrow(/timeoutMs/);
		expect(() => createCodemodeToolDefinition({ tempDir: temp.path, memoryLimitBytes: -1 })).toThrow(
			/memoryLimitBytes/,
		);
	});
});

describe("the description", () => {
	test("mode on lists the callable codemode tools with signatures, never deferred or direct ones", () => {
		const tools = registry();
		const changes = definition().prepareLoadout?.(makeLoadout(tools, ["read_file", "codemode"]));
		const text = changes?.descriptions?.codemode ?? "";
		expect(text).toContain("tools.add({");
		expect(text).toContain("a: number; // First addend");
		expect(text).toContain("}) → { sum: number }");
		expect(text).toContain('tools["github-search"]({');
		expect(text).toContain("// Search GitHub issues by keyword.");
		expect(text).not.toContain("vault_read");
		expect(text).not.toContain("tools.read_file");
		expect(text).not.toContain("tools.codemode");
		expect(text).not.toContain("tools.tool_search");
		expect(changes?.hiddenDeclarations).toBeUndefined();
	});

	test("mode only lists every callable tool but deferred ones and hides the active direct tools' declarations", () => {
		const tools = registry();
		const changes = definition({ mode: "only" }).prepareLoadout?.(
			makeLoadout(tools, ["read_file", "codemode", "tool_search"]),
		);
		const text = changes?.descriptions?.codemode ?? "";
		expect(text).toContain("tools.read_file({");
		expect(text).toContain("tools.add({");
		expect(text).not.toContain("vault_read");
		expect(text).not.toContain("tools.tool_search");
		expect(changes?.hiddenDeclarations).toEqual(["read_file"]);
	});

	test("says when no tool is reached only through scripts", () => {
		const onlyDirect: TestTool[] = [{ tool: directTool, exposure: "direct" }];
		const text = definition().prepareLoadout?.(makeLoadout(onlyDirect, ["read_file", "codemode"]))?.descriptions
			?.codemode;
		expect(text).toContain("No tools are reached only through scripts right now");
		expect(text).not.toContain("tools.read_file(");
	});

	test("stays within its budget and says which tools and details it left out", () => {
		const many: TestTool[] = Array.from({ length: 60 }, (_, index) => ({
			tool: makeTool(
				`generated_${index}`,
				`Generated tool number ${index}.`,
				Type.Object({
					first: Type.String({ description: "A fairly long description of the first parameter ".repeat(3) }),
					second: Type.String({ description: "A fairly long description of the second parameter ".repeat(3) }),
					third: Type.String({ description: "A fairly long description of the third parameter ".repeat(3) }),
					fourth: Type.Optional(Type.Object({ inner: Type.Array(Type.Object({ deep: Type.Number() })) })),
				}),
				async () => ({ content: [] }),
			),
			exposure: "codemode",
		}));
		const tool = createCodemodeToolDefinition({ tempDir: temp.path, descriptionBudget: 4_000 });
		const text = tool.prepareLoadout?.(makeLoadout(many, ["codemode"]))?.descriptions?.codemode ?? "";
		const listing = text.slice(text.indexOf("Tools reached through scripts"));
		expect(listing.length).toBeLessThan(4_600);
		// Compact: one line a tool, every parameter named and typed, nested types collapsed (describeTool has them).
		expect(text).toContain(
			"tools.generated_0({ first: string; second: string; third: string; fourth?: { inner: object[] } })",
		);
		expect(text).not.toContain("A fairly long description");
		expect(text).toMatch(/\n\d+ more \(describeTool\(name\) gives one's parameters\): generated_\{\d+, /);
		// The names of the tools left out share their prefix once, each name whole after it.
		const named = text.slice(text.lastIndexOf("generated_{") + "generated_{".length).split(/[,}]/)[0];
		expect(named).toMatch(/^\d+$/);
	});

	test("a compact listing keeps what a call needs: enums, required and optional parameters, structured results", () => {
		const many: TestTool[] = Array.from({ length: 40 }, (_, index) => ({
			tool: {
				...makeTool(
					`mcp__tracker__tool_${index}`,
					`Finds records of kind ${index}. More text the listing leaves out.`,
					Type.Object({
						key: Type.String({ description: "The key" }),
						state: Type.Optional(Type.Union([Type.Literal("open"), Type.Literal("closed")])),
					}),
					async () => ({ content: [] }),
				),
				outputSchema: Type.Object({ count: Type.Number() }),
			},
			exposure: "codemode",
		}));
		const tool = createCodemodeToolDefinition({ tempDir: temp.path, descriptionBudget: 8_000 });
		const text = tool.prepareLoadout?.(makeLoadout(many, ["codemode"]))?.descriptions?.codemode ?? "";
		expect(text).toContain(
			'tools.mcp__tracker__tool_0({ key: string; state?: "open" | "closed" }) → { count: number } // Finds records of kind 0.',
		);
		expect(text).not.toContain("More text the listing leaves out");
	});
});

describe("execute", () => {
	async function execute(code: string, options: { blocked?: string[]; tool?: ReturnType<typeof definition> } = {}) {
		const tools = registry();
		const loadout = makeLoadout(tools, ["read_file", "codemode"]);
		const ctx = makeContext(tools, loadout.callable, options.blocked);
		const tool = options.tool ?? definition();
		return tool.execute("call_1", { code }, undefined, undefined, ctx);
	}

	test("runs the script against ctx.tools (8 callable besides codemode) through ctx.executeTool", async () => {
		const result = await execute(
			"const sum = (await tools.add({ a: 1, b: 2 })).sum;\nreturn [sum, await tools.read_file({ path: 'x' }), ALL_TOOLS.length];",
		);
		expect(result.isError).toBeUndefined();
		expect(result.content).toEqual([{ type: "text", text: 'Script completed\n[\n  3,\n  "file body",\n  8\n]' }]);
		expect(result.details?.calls.map((call) => call.name)).toEqual(["add", "read_file"]);
	});

	test("ALL_TOOLS leaves out deferred tools by the catalog's word", async () => {
		const result = await execute("return ALL_TOOLS.some((tool) => tool.name === 'vault_read');");
		expect(result.content[0]).toEqual({ type: "text", text: "Script completed\nfalse" });
	});

	test("a blocked nested call rejects in the script, and the next script runs normally", async () => {
		const blocked = await execute("await tools.add({ a: 1, b: 1 });\nawait tools.explode({});", {
			blocked: ["explode"],
		});
		expect(blocked.isError).toBe(true);
		const [block] = blocked.content;
		const text = block?.type === "text" ? block.text : "";
		expect(text.split("\n")[0]).toBe("Script failed");
		expect(text).toContain("Blocked by policy: explode");
		expect(text).toContain("1. add");
		expect(text).toContain("they are not undone");
		expect(blocked.details?.error).toContain("Blocked by policy");
		const next = await execute("return (await tools.add({ a: 2, b: 2 })).sum;");
		expect(next.content[0]).toEqual({ type: "text", text: "Script completed\n4" });
	});

	test("a bad options line fails before any tool runs", async () => {
		const result = await execute('// @options: {"timeout": 5}\nawait tools.add({ a: 1, b: 2 });');
		expect(result.isError).toBe(true);
		const [block] = result.content;
		const text = block?.type === "text" ? block.text : "";
		expect(text.split("\n")[0]).toBe("Script failed");
		expect(text).toContain('Unknown option "timeout"');
		expect(result.details?.calls).toEqual([]);
	});

	test("saves overflowing output in the folder tempDir() names at call time", async () => {
		let asked = 0;
		const tool = definition({
			maxOutputTokens: 20,
			tempDir: () => {
				asked++;
				return `${temp.path}/session-tmp`;
			},
		});
		const result = await execute("for (let i = 0; i < 100; i++) text('row ' + i);", { tool });
		expect(asked).toBe(1);
		const path = result.details?.fullOutputPath ?? "";
		expect(path.startsWith(`${temp.path}/session-tmp/`)).toBe(true);
		expect(readFileSync(path, "utf8")).toContain("row 57\n");
	});

	test("throws without a tool context", async () => {
		const tool = definition();
		await expect(
			tool.execute("call_1", { code: "return 1" }, undefined, undefined, undefined as unknown as ExtensionToolContext),
		).rejects.toThrow(/inside a session/);
	});
});
