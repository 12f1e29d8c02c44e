import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type RunCodemodeScriptOptions, runCodemodeScript } from "../../src/codemode/index.js";
import { createTestHost, makeTempDir, standardTools } from "./fixtures.js";

const MEMORY_LIMIT = 8 * 1024 * 1024;

let temp: ReturnType<typeof makeTempDir>;
let host: ReturnType<typeof createTestHost>;
beforeEach(() => {
	temp = makeTempDir();
	host = createTestHost(standardTools());
});
afterEach(() => temp.remove());

function run(code: string, options: Partial<RunCodemodeScriptOptions> = {}) {
	return runCodemodeScript({ code, tools: host, tempDir: temp.path, memoryLimitBytes: MEMORY_LIMIT, ...options });
}

/** The next script after a stopped one runs normally, tools included. */
async function expectNextScriptWorks() {
	const next = await run("return (await tools.add({ a: 40, b: 2 })).sum;");
	expect(next.ok).toBe(true);
	expect(next.text).toBe("Script completed\n42");
}

describe("time limit", () => {
	test("an endless loop is stopped with 'Script timed out', keeping the output so far", async () => {
		const result = await run("text('before the loop');\nwhile (true) {}", { timeoutMs: 200 });
		expect(result.ok).toBe(false);
		expect(result.text.split("\n")[0]).toBe("Script failed");
		expect(result.output).toBe("before the loop");
		expect(result.error).toContain("Script timed out after 200 ms");
		await expectNextScriptWorks();
	});

	test("an endless loop after a tool call is stopped too (time counts across awaits)", async () => {
		const result = await run("await tools.echo({ text: 'x' });\nfor (;;) { Math.random(); }", { timeoutMs: 200 });
		expect(result.error).toContain("Script timed out");
		expect(result.text).toContain("1. echo");
		await expectNextScriptWorks();
	});

	test("a script awaiting a call that never settles ends at the deadline and aborts the call", async () => {
		const result = await run("await tools.hang({});", { timeoutMs: 200 });
		expect(result.error).toContain("Script timed out");
		expect(result.calls).toEqual([expect.objectContaining({ name: "hang", status: "unfinished" })]);
		await expectNextScriptWorks();
	});

	test("an endless loop in a getter on the returned value is stopped", async () => {
		const result = await run("return { get x() { for (;;) {} } };", { timeoutMs: 200 });
		expect(result.error).toContain("Script timed out");
	});

	test("an endless Error.prepareStackTrace is reported as timed out, not as the error it was building", async () => {
		const code = 'Error.prepareStackTrace = () => { for (;;) {} };\nthrow new Error("x");';
		const result = await run(code, { timeoutMs: 300 });
		expect(result.ok).toBe(false);
		expect(result.error).toContain("Script timed out after 300 ms");
		const caught = await run(`${code.replace("throw ", "try { throw ")} } catch {}\nreturn "went on";`, {
			timeoutMs: 300,
		});
		expect(caught.error).toContain("Script timed out after 300 ms");
		await expectNextScriptWorks();
	});

	test("catastrophic regular expression backtracking is stopped too", async () => {
		const result = await run("return /(a+)+$/.test('a'.repeat(40) + 'b');", { timeoutMs: 200 });
		expect(result.error).toContain("Script timed out");
		await expectNextScriptWorks();
	});

	test("the options line sets the time limit of one script", async () => {
		const result = await run('// @options: {"timeout_ms": 150}\nwhile (true) {}', { timeoutMs: 60_000 });
		expect(result.error).toContain("Script timed out after 150 ms");
	});
});

describe("memory limit", () => {
	const bombs: [string, string][] = [
		["objects pushed onto an array", "const list = [];\nwhile (true) list.push({ index: list.length });"],
		["typed arrays", "const list = [];\nwhile (true) list.push(new Uint8Array(8192));"],
		["strings doubled", "let value = 'x';\nwhile (true) { value = value.repeat(2); }"],
		[
			"strings concatenated and flattened",
			"let value = 'xy';\nwhile (true) { value = value + value; value.indexOf('z'); }",
		],
		["one huge ArrayBuffer", "const buffer = new ArrayBuffer(256 * 1024 * 1024);\nreturn buffer.byteLength;"],
		["one huge string", "return 'x'.repeat(100_000_000).length;"],
		["one huge array", "return new Array(50_000_000).fill(0).length;"],
	];
	for (const [name, code] of bombs) {
		test(`${name}: the allocation fails inside the script and the next script runs normally`, async () => {
			const result = await run(`text('allocating');\n${code}`);
			expect(result.ok).toBe(false);
			expect(result.output).toBe("allocating");
			expect(result.error).toContain("Out of memory");
			await expectNextScriptWorks();
		});
	}

	test("strings doubled as ropes hit the string length limit inside the script", async () => {
		const result = await run("let value = 'xy';\nwhile (true) value = value + value;");
		expect(result.ok).toBe(false);
		expect(result.error).toMatch(/string too long|Out of memory/);
		await expectNextScriptWorks();
	});

	test("a script cannot catch running out of memory and carry on", async () => {
		const code =
			"try { const list = []; while (true) list.push(new Float64Array(4096)); } catch (error) { return 'caught'; }";
		const result = await run(code);
		expect(result.ok).toBe(false);
		expect(result.error).toContain("Out of memory");
	});

	test("a tool result bigger than the memory limit fails the script, not the process", async () => {
		const big = createTestHost([
			{
				tool: {
					name: "firehose",
					label: "firehose",
					description: "Returns a lot of text.",
					parameters: { type: "object", properties: {} } as never,
					execute: async () => ({ content: [{ type: "text", text: "y".repeat(12 * 1024 * 1024) }] }),
				},
			},
		]);
		const result = await runCodemodeScript({
			code: "const received = await tools.firehose({});\nreturn received.length;",
			tools: big,
			tempDir: temp.path,
			memoryLimitBytes: MEMORY_LIMIT,
		});
		expect(result.ok).toBe(false);
		expect(result.error).toContain("Out of memory");
		expect(result.text).toContain("1. firehose");
		await expectNextScriptWorks();
	});

	test("deep recursion is a RangeError inside the script", async () => {
		const code = "function down(depth) { return down(depth + 1) + 1; }";
		const caught = await run(`${code}\ntry { down(0); } catch (error) { return String(error); }`);
		expect(caught.output).toBe("RangeError: Maximum call stack size exceeded");
		const uncaught = await run(`${code}\nreturn down(0);`);
		expect(uncaught.ok).toBe(false);
		expect(uncaught.error).toContain("RangeError: Maximum call stack size exceeded");
		await expectNextScriptWorks();
	});
});
