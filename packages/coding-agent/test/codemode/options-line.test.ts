import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseOptionsLine, runCodemodeScript } from "../../src/codemode/index.js";
import { createTestHost, makeTempDir, standardTools } from "./fixtures.js";

const limits = { maxTimeoutMs: 600_000, maxOutputTokens: 100_000 };

describe("parseOptionsLine", () => {
	test("reads timeout_ms and max_output_tokens from the first line", () => {
		expect(parseOptionsLine('// @options: {"timeout_ms": 5000, "max_output_tokens": 200}\nreturn 1', limits)).toEqual({
			ok: true,
			options: { timeoutMs: 5000, maxOutputTokens: 200 },
		});
		expect(parseOptionsLine('  //@options:{"timeout_ms":1}\r\nreturn 1', limits)).toEqual({
			ok: true,
			options: { timeoutMs: 1 },
		});
	});

	test("code without an options line has no options", () => {
		expect(parseOptionsLine("// just a comment\nreturn 1", limits)).toEqual({ ok: true, options: {} });
		expect(parseOptionsLine("const options = '@options';", limits)).toEqual({ ok: true, options: {} });
	});

	const problems: [string, string, RegExp][] = [
		["an unknown key", '// @options: {"timeout": 5}', /Unknown option "timeout"/],
		["a string value", '// @options: {"timeout_ms": "5"}', /"timeout_ms" must be an integer/],
		["a fraction", '// @options: {"max_output_tokens": 1.5}', /"max_output_tokens" must be an integer/],
		["zero", '// @options: {"timeout_ms": 0}', /"timeout_ms" must be an integer from 1/],
		["a value over the maximum", '// @options: {"timeout_ms": 600001}', /from 1 to 600000/],
		["invalid JSON", "// @options: {timeout_ms: 5}", /not valid JSON/],
		["an array", "// @options: [1]", /JSON object/],
		["a missing colon", '// @options {"timeout_ms": 5}', /must read/],
		["an options line below the first line", 'return 1;\n// @options: {"timeout_ms": 5}', /first line.*line 2/],
	];
	for (const [name, code, message] of problems) {
		test(`${name} is a problem that names itself`, () => {
			const result = parseOptionsLine(code, limits);
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.problem).toMatch(message);
		});
	}
});

describe("a script with a bad options line", () => {
	let temp: ReturnType<typeof makeTempDir>;
	beforeEach(() => {
		temp = makeTempDir();
	});
	afterEach(() => temp.remove());

	test("fails with 'Script failed', names the problem, and runs nothing", async () => {
		const host = createTestHost(standardTools());
		for (const code of [
			'// @options: {"memory": 5}\nawait tools.echo({ text: "x" });',
			'await tools.echo({ text: "x" });\n// @options: {"timeout_ms": 5}',
		]) {
			const result = await runCodemodeScript({ code, tools: host, tempDir: temp.path });
			expect(result.ok).toBe(false);
			expect(result.started).toBe(false);
			expect(result.text.split("\n")[0]).toBe("Script failed");
			expect(result.text).toContain("did not run");
		}
		expect(host.ran).toEqual([]);
	});

	test("max_output_tokens sets the output budget of one script", async () => {
		const host = createTestHost(standardTools());
		const code = '// @options: {"max_output_tokens": 10}\ntext("x".repeat(200));';
		const result = await runCodemodeScript({ code, tools: host, tempDir: temp.path });
		expect(result.output).toContain("characters omitted");
		expect(result.output).toContain("10-token budget");
	});
});
