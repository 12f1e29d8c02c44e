import type { AgentToolCallOutcome } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
	type CodemodeToolHost,
	createContextToolHost,
	runCodemodeScript,
	scriptCallableTools,
} from "../../src/codemode/index.js";
import { makeTempDir, makeTool } from "./fixtures.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
	temp = makeTempDir();
});
afterEach(() => temp.remove());

const weather = makeTool("weather", "Weather for a city.", Type.Object({ city: Type.String() }), async () => ({
	content: [{ type: "text", text: "sunny" }],
	structuredContent: { sky: "sunny" },
}));
const note = makeTool("note", "Write a note.", Type.Object({ text: Type.String() }), async () => ({ content: [] }));

describe("createContextToolHost", () => {
	test("lists ctx.tools with the catalog's facts and calls through ctx.executeTool with the signal", async () => {
		const seen: { name: string; args: unknown; signal: AbortSignal | undefined }[] = [];
		const ctx: ExtensionToolContext = {
			cwd: temp.path,
			hasUI: false,
			tools: [weather, note],
			async executeTool(name, args, options): Promise<AgentToolCallOutcome> {
				seen.push({ name, args, signal: options?.signal });
				return {
					toolCall: { type: "toolCall", id: "p/1", name, arguments: {} },
					result: { content: [] },
					isError: false,
				};
			},
		};
		const host = createContextToolHost(ctx, (name) =>
			name === "weather"
				? { exposure: "deferred", outputSchema: Type.Object({ sky: Type.String() }), namespace: { name: "meteo" } }
				: undefined,
		);
		expect(host.list()).toEqual([
			{
				name: "weather",
				description: "Weather for a city.",
				parameters: weather.parameters,
				exposure: "deferred",
				outputSchema: Type.Object({ sky: Type.String() }),
				namespace: { name: "meteo" },
			},
			{ name: "note", description: "Write a note.", parameters: note.parameters, exposure: "direct" },
		]);
		const controller = new AbortController();
		await host.call("note", { text: "hi" }, controller.signal);
		expect(seen).toEqual([{ name: "note", args: { text: "hi" }, signal: controller.signal }]);
	});

	test("scripts never see codemode, model-only or hidden tools", () => {
		const base = { description: "", parameters: Type.Object({}) };
		const listed = scriptCallableTools([
			{ ...base, name: "codemode", exposure: "model-only" },
			{ ...base, name: "codemode", exposure: "direct" },
			{ ...base, name: "tool_search", exposure: "model-only" },
			{ ...base, name: "gone", exposure: "hidden" },
			{ ...base, name: "kept", exposure: "codemode" },
			{ ...base, name: "found", exposure: "deferred" },
		]);
		expect(listed.map((tool) => tool.name)).toEqual(["kept", "found"]);
	});
});

describe("hosts that misbehave", () => {
	const list = () => [
		{ name: "flaky", description: "Flaky.", parameters: Type.Object({}), exposure: "codemode" as const },
	];

	test("a host call that rejects makes the script's call reject with its message", async () => {
		const host: CodemodeToolHost = { list, call: async () => Promise.reject(new Error("pipeline exploded")) };
		const result = await runCodemodeScript({
			code: "try { await tools.flaky(); } catch (error) { return error.message; }",
			tools: host,
			tempDir: temp.path,
		});
		expect(result.output).toBe("pipeline exploded");
		expect(result.calls).toEqual([expect.objectContaining({ name: "flaky", status: "error" })]);
	});

	test("a host whose list throws fails the script before it starts", async () => {
		const host: CodemodeToolHost = {
			list: () => {
				throw new Error("registry offline");
			},
			call: async () => Promise.reject(new Error("unused")),
		};
		const result = await runCodemodeScript({ code: "return 1", tools: host, tempDir: temp.path });
		expect(result.ok).toBe(false);
		expect(result.started).toBe(false);
		expect(result.text).toContain("registry offline");
	});

	test("an already aborted signal fails the script before it starts", async () => {
		const controller = new AbortController();
		controller.abort();
		const host: CodemodeToolHost = { list, call: async () => Promise.reject(new Error("unused")) };
		const result = await runCodemodeScript({
			code: "return 1",
			tools: host,
			tempDir: temp.path,
			signal: controller.signal,
		});
		expect(result.ok).toBe(false);
		expect(result.text).toContain("aborted");
	});
});
