import { readFileSync } from "node:fs";
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type RunCodemodeScriptOptions, runCodemodeScript } from "../../src/codemode/index.js";
import { createTestHost, makeTempDir, makeTool, standardTools } from "./fixtures.js";

let temp: ReturnType<typeof makeTempDir>;
let host: ReturnType<typeof createTestHost>;
beforeEach(() => {
	temp = makeTempDir();
	host = createTestHost(standardTools());
});
afterEach(() => temp.remove());

function run(code: string, options: Partial<RunCodemodeScriptOptions> = {}) {
	return runCodemodeScript({ code, tools: host, tempDir: temp.path, ...options });
}

describe("the script", () => {
	test("is the body of an async function: top-level await and return work", async () => {
		const result = await run("const value = await Promise.resolve(20);\nreturn value + 22;");
		expect(result.ok).toBe(true);
		expect(result.text).toBe("Script completed\n42");
	});

	test("says so when it produced no output", async () => {
		const result = await run("const unused = 1;");
		expect(result.text).toBe("Script completed\n(no output)");
	});

	test("empty code fails without running", async () => {
		for (const code of ["", "  \n\t "]) {
			const result = await run(code);
			expect(result.ok).toBe(false);
			expect(result.started).toBe(false);
			expect(result.text.split("\n")[0]).toBe("Script failed");
			expect(result.text).toContain("empty");
		}
		expect(host.ran).toEqual([]);
	});

	test("a syntax error fails and names the error", async () => {
		const result = await run("const = 3;");
		expect(result.ok).toBe(false);
		expect(result.text.split("\n")[0]).toBe("Script failed");
		expect(result.error).toMatch(/^SyntaxError/);
	});

	test("an exception fails with its message and a stack into the script", async () => {
		const code = "function inner() { throw new TypeError('bad thing'); }\nfunction outer() { inner(); }\nouter();";
		const result = await run(code);
		expect(result.ok).toBe(false);
		expect(result.error).toContain("TypeError: bad thing");
		expect(result.error).toContain("at inner (script.js:1:");
		expect(result.error).toContain("script.js:2:");
		expect(result.error).not.toContain("prelude.js");
	});

	test("a thrown non-error value is named too", async () => {
		const result = await run("throw { code: 7 };");
		expect(result.ok).toBe(false);
		expect(result.error).toContain("Uncaught");
		expect(result.error).toContain('"code": 7');
	});
});

describe("output", () => {
	test("text(), console.* and the returned value appear in production order", async () => {
		const code = [
			"text('first');",
			"console.log('second', 2, { three: 3 });",
			"text(await tools.echo({ text: 'from a tool' }));",
			"console.info('info'); console.warn('careful'); console.error('broken');",
			"text([1, 2]);",
			"return { done: true };",
		].join("\n");
		const result = await run(code);
		expect(result.ok).toBe(true);
		expect(result.output).toBe(
			[
				"first",
				'second 2 {\n  "three": 3\n}',
				"from a tool",
				"info",
				"[warn] careful",
				"[error] broken",
				"[\n  1,\n  2\n]",
				'{\n  "done": true\n}',
			].join("\n"),
		);
		expect(result.text).toBe(`Script completed\n${result.output}`);
	});

	test("a failure keeps the partial output and lists the calls already made", async () => {
		const code =
			"text('before');\nawait tools.echo({ text: 'x' });\nawait tools.add({ a: 1, b: 2 });\nthrow new Error('stop here');";
		const result = await run(code);
		expect(result.ok).toBe(false);
		const lines = result.text.split("\n");
		expect(lines[0]).toBe("Script failed");
		expect(lines[1]).toBe("before");
		expect(result.text).toContain("Error: stop here");
		expect(result.text).toContain("they are not undone");
		expect(result.text).toContain('1. echo {"text":"x"}: ok');
		expect(result.text).toContain('2. add {"a":1,"b":2}: ok');
		expect(result.calls.map((call) => [call.name, call.status])).toEqual([
			["echo", "ok"],
			["add", "ok"],
		]);
	});

	test("output over the budget keeps head and tail and saves the full text to a file", async () => {
		const code = "for (let i = 0; i < 400; i++) console.log('line ' + i);";
		const result = await run(code, { maxOutputTokens: 100 });
		expect(result.ok).toBe(true);
		expect(result.output).toContain("line 0\n");
		expect(result.output).toContain("line 399");
		expect(result.output).not.toContain("line 200\n");
		expect(result.output).toContain("characters omitted");
		expect(result.fullOutputPath).toBeDefined();
		const path = result.fullOutputPath ?? "";
		expect(path.startsWith(temp.path)).toBe(true);
		expect(result.text).toContain(path);
		const saved = readFileSync(path, "utf8").split("\n");
		expect(saved).toHaveLength(400);
		expect(saved[200]).toBe("line 200");
	});

	test("output within the budget writes no file", async () => {
		const result = await run("text('short');", { maxOutputTokens: 100 });
		expect(result.fullOutputPath).toBeUndefined();
		expect(result.output).toBe("short");
	});

	test("a throwing getter on the returned object fails the script, naming the error", async () => {
		const result = await run("return { get secret() { throw new Error('getter says no'); } };");
		expect(result.ok).toBe(false);
		expect(result.error).toContain("getter says no");
		expect(result.error).toContain("returned value");
	});
});

describe("tools", () => {
	test("a tool with an outputSchema resolves to its structuredContent", async () => {
		const result = await run("const value = await tools.add({ a: 2, b: 3 });\nreturn typeof value + ' ' + value.sum;");
		expect(result.output).toBe("object 5");
	});

	test("structuredContent wins even on an error result when the tool declares an outputSchema", async () => {
		const result = await run("const value = await tools.lint({ path: 'a.ts' });\nreturn value.problems;");
		expect(result.ok).toBe(true);
		expect(result.output).toBe("2");
	});

	test("a tool without an outputSchema resolves to its text, whatever structuredContent it carries", async () => {
		const result = await run("return await tools.plain_structured({});");
		expect(result.output).toBe("plain text wins");
	});

	test("an error result rejects with an Error carrying the tool's text", async () => {
		const code = [
			"try { await tools.explode({}); }",
			"catch (error) { return [error instanceof Error, error.message, error.tool].join(' | '); }",
		].join("\n");
		const result = await run(code);
		expect(result.output).toBe("true | disk on fire | explode");
		expect(result.calls).toEqual([
			expect.objectContaining({ name: "explode", status: "error", error: "disk on fire" }),
		]);
	});

	test("tools are reachable by id and by raw name", async () => {
		const code =
			"return [tools.github_search === tools['github-search'], await tools.github_search({ query: 'bugs' })];";
		const result = await run(code);
		expect(result.output).toBe('[\n  true,\n  "issues about bugs"\n]');
		expect(host.ran).toEqual([{ name: "github-search", args: { query: "bugs" } }]);
	});

	test("Promise.all over two tools runs them at the same time", async () => {
		// Each tool finishes only once the other has started: run one after the other they would wait forever.
		const result = await run("return await Promise.all([tools.meet_left(), tools.meet_right()]);");
		expect(result.ok).toBe(true);
		expect(result.output).toContain("meet_left saw meet_right");
		expect(result.output).toContain("meet_right saw meet_left");
	});

	test("awaiting the same two tools one after the other never finishes (the check above can fail)", async () => {
		const result = await run("await tools.meet_left();\nawait tools.meet_right();", { timeoutMs: 300 });
		expect(result.ok).toBe(false);
		expect(result.error).toContain("Script timed out");
		expect(result.calls).toEqual([expect.objectContaining({ name: "meet_left", status: "unfinished" })]);
	});

	test("ALL_TOOLS lists callable tools, not deferred ones and never codemode", async () => {
		const result = await run("return ALL_TOOLS.map((tool) => tool.name).join(',');");
		expect(result.output).toBe("echo,add,explode,lint,plain_structured,github-search,hang,meet_left,meet_right");
		const described = await run("return ALL_TOOLS[0];");
		expect(described.output).toBe('{\n  "name": "echo",\n  "description": "Echo the given text back."\n}');
	});

	test("codemode itself cannot be called from a script", async () => {
		const result = await run("return [typeof tools.codemode, Object.keys(tools).includes('codemode')];");
		expect(result.output).toBe('[\n  "undefined",\n  false\n]');
	});

	test("deferred tools are still callable by exact name and found by searchTools", async () => {
		const result = await run(
			"const found = searchTools('read a secret from the vault');\nreturn [found[0].name, await tools.vault_read({ key: 'k1' })];",
		);
		expect(result.output).toBe('[\n  "vault_read",\n  "secret k1"\n]');
	});

	test("searchTools ranks, honours the limit, and rejects bad input", async () => {
		const result = await run(
			[
				"const top = searchTools('github issues', { limit: 1 });",
				"text(top.map((tool) => tool.name));",
				"text(searchTools('add').length >= 1 && searchTools('add')[0].name);",
				"text(searchTools('zzzz nothing matches').length);",
				"try { searchTools(''); } catch (error) { text(error.message); }",
				"try { searchTools('x', { limit: 0 }); } catch (error) { text(error.message); }",
			].join("\n"),
		);
		expect(result.output.split("\n")).toEqual([
			"[",
			'  "github-search"',
			"]",
			"add",
			"0",
			"searchTools needs a non-empty query.",
			"searchTools: limit must be a positive integer.",
		]);
	});

	test("describeTool gives the description and parameters, and throws for unknown tools", async () => {
		const result = await run(
			"text(describeTool('add'));\ntry { describeTool('nope'); } catch (error) { text(error.message); }",
		);
		expect(result.output).toContain("Add two numbers.");
		expect(result.output).toContain("tools.add(args: {");
		expect(result.output).toContain("a: number; // First addend");
		expect(result.output).toContain("Promise<{ sum: number }>");
		expect(result.output).toContain('No callable tool named "nope".');
	});

	test("arguments that cannot be sent reject inside the script", async () => {
		const code =
			"try { await tools.echo({ get text() { throw new Error('no args for you'); } }); } catch (error) { return error.message; }";
		const result = await run(code);
		expect(result.output).toBe("no args for you");
		expect(host.ran).toEqual([]);
	});

	test("an abort stops the script and aborts its running calls", async () => {
		const controller = new AbortController();
		const pending = run("text('started');\nawait tools.hang({});", { signal: controller.signal });
		setTimeout(() => controller.abort(), 50);
		const result = await pending;
		expect(result.ok).toBe(false);
		expect(result.error).toBe("Script aborted.");
		expect(result.output).toBe("started");
		expect(result.calls).toEqual([expect.objectContaining({ name: "hang", status: "unfinished" })]);
	});
});

describe("calls the script does not wait for", () => {
	test("are aborted when the script ends, and reported as unfinished", async () => {
		const signals: AbortSignal[] = [];
		const watch = makeTool("watch", "Waits until aborted.", Type.Object({}), (_params, signal) => {
			if (signal) signals.push(signal);
			return new Promise(() => {});
		});
		const result = await runCodemodeScript({
			code: "const pending = tools.watch({});\nawait tools.echo({ text: 'x' });\nreturn 'done';",
			tools: createTestHost([...standardTools(), { tool: watch }]),
			tempDir: temp.path,
		});
		expect(result.ok).toBe(true);
		expect(result.calls.map((call) => [call.name, call.status])).toEqual([
			["watch", "unfinished"],
			["echo", "ok"],
		]);
		expect(signals).toHaveLength(1);
		expect(signals[0]?.aborted).toBe(true);
	});
});
