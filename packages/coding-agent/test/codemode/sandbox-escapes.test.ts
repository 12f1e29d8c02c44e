import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runCodemodeScript } from "../../src/codemode/index.js";
import { createTestHost, makeTempDir, makeTool, standardTools } from "./fixtures.js";

let temp: ReturnType<typeof makeTempDir>;
let received: unknown[];
let host: ReturnType<typeof createTestHost>;
beforeEach(() => {
	temp = makeTempDir();
	received = [];
	const recorder = makeTool(
		"record",
		"Keeps the arguments it gets.",
		Type.Object({}, { additionalProperties: true }),
		async (params) => {
			received.push(params);
			return { content: [{ type: "text", text: "recorded" }] };
		},
	);
	host = createTestHost([...standardTools(), { tool: recorder }]);
});
afterEach(() => temp.remove());

async function output(code: string): Promise<string> {
	const result = await runCodemodeScript({ code, tools: host, tempDir: temp.path, timeoutMs: 2_000 });
	return result.ok ? result.output : `FAILED ${result.error}`;
}

describe("the sandbox has no way out", () => {
	test("no process, require, fetch, timers or host helpers exist", async () => {
		const names = [
			"process",
			"require",
			"module",
			"fetch",
			"XMLHttpRequest",
			"WebSocket",
			"setTimeout",
			"setInterval",
			"setImmediate",
			"Buffer",
			"WebAssembly",
			"std",
			"os",
			"Deno",
			"Bun",
			"host0",
			"host1",
		];
		const code = `return ${JSON.stringify(names)}.filter((name) => typeof globalThis[name] !== "undefined").join(",") || "none";`;
		expect(await output(code)).toBe("none");
		expect(await output("return typeof setTimeout;")).toBe("undefined");
	});

	test("import() cannot load anything", async () => {
		for (const specifier of ["node:fs", "fs", "./secrets.js", "data:text/javascript,export default 1"]) {
			const text = await output(
				`try { await import(${JSON.stringify(specifier)}); return "loaded"; } catch (error) { return "refused"; }`,
			);
			expect(text).toBe("refused");
		}
		expect(await output("import fs from 'node:fs';")).toMatch(/^FAILED SyntaxError/);
	});

	test("the Function constructor and constructor chains only reach the sandbox's own globals", async () => {
		const attempts = [
			"this.constructor.constructor('return process')()",
			"Function('return process')()",
			"(async function () {}).constructor('return process')()",
			"tools.echo.constructor('return process')()",
			"text.constructor('return require')()",
			"ALL_TOOLS.constructor.constructor('return globalThis.process')()",
			"eval('process')",
			"Object.getPrototypeOf(tools.echo).constructor('return fetch')()",
		];
		for (const attempt of attempts) {
			const text = await output(
				`try { const value = await ${attempt}; return typeof value; } catch (error) { return error.name; }`,
			);
			expect([attempt, text]).toEqual([attempt, expect.stringMatching(/^(ReferenceError|undefined)$/)]);
		}
		expect(await output("return Function('return this')() === globalThis;")).toBe("true");
	});

	test("prototype pollution stays inside the VM", async () => {
		const before = Object.getOwnPropertyNames(Object.prototype).sort();
		const code = [
			"Object.prototype.polluted = 'yes';",
			"Array.prototype.injected = () => 'yes';",
			'JSON.parse(\'{"__proto__": {"viaJson": 1}}\');',
			"Object.assign(Object.getPrototypeOf(tools), { viaTools: true });",
			'await tools.record(JSON.parse(\'{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"viaCtor": 1}}}\'));',
			"await tools.record({ nested: { __proto__: { sneaky: true } } });",
			"return ({}).polluted;",
		].join("\n");
		expect(await output(code)).toBe("yes");
		expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
		const probe: Record<string, unknown> = {};
		expect(probe.polluted).toBeUndefined();
		expect(probe.isAdmin).toBeUndefined();
		expect(probe.viaCtor).toBeUndefined();
		expect(probe.viaTools).toBeUndefined();
		expect(([] as unknown as Record<string, unknown>).injected).toBeUndefined();
		const first = received[0] as Record<string, unknown>;
		expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
		expect(first.isAdmin).toBeUndefined();
		expect(Object.getPrototypeOf(received[1] as object)).toBe(Object.prototype);
		// The sandbox is fresh for every script: the pollution is gone.
		expect(await output("return [({}).polluted, typeof [].injected].join(',');")).toBe(",undefined");
	});

	test("rewriting the sandbox's intrinsics only confuses the script itself", async () => {
		const code = [
			"JSON.stringify = () => { throw new Error('hijacked stringify'); };",
			"JSON.parse = () => ({ ok: true, value: 'forged' });",
			"Promise.prototype.then = function () { throw new Error('hijacked then'); };",
			"Reflect.apply = () => 'hijacked apply';",
			"String = () => 'hijacked';",
			"return 'still here';",
		].join("\n");
		expect(await output(code)).toBe("still here");
		const calls = "JSON.parse = () => ({ ok: true, value: 'forged' });\nreturn await tools.echo({ text: 'real' });";
		expect(await output(calls)).toBe("real");
	});

	test("a returned object with a throwing getter or a hostile toJSON fails inside the script", async () => {
		expect(await output("return { get boom() { throw new Error('no reading me'); } };")).toContain("no reading me");
		expect(await output("return { toJSON() { throw new Error('no json'); } };")).toContain("no json");
		const proxy = "return new Proxy({}, { ownKeys() { throw new Error('trap!'); } });";
		expect(await output(proxy)).toContain("trap!");
		expect(await output("return 'the next script runs';")).toBe("the next script runs");
	});

	test("breaking out of the function wrapper still runs inside the sandbox", async () => {
		const text = await output("});\nglobalThis.escaped = typeof process;\n(async function () {");
		expect(text).not.toContain("escaped");
		expect(await output("return typeof globalThis.escaped;")).toBe("undefined");
	});
});
