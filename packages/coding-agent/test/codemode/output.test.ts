import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalWorkspace } from "@gantry/tools";
import { afterEach, assert, beforeEach, describe, expect, test } from "vitest";
import { OutputCapture } from "../../src/codemode/index.js";
import { makeTempDir } from "./fixtures.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
	temp = makeTempDir();
});
afterEach(() => temp.remove());

const host = createLocalWorkspace(process.cwd());

describe("OutputCapture", async () => {
	test("joins entries with newlines and keeps everything within the budget", async () => {
		const capture = new OutputCapture({ maxOutputTokens: 10, tempDir: temp.path, host });
		capture.append("one");
		capture.append("two");
		expect(await capture.finish()).toEqual({ text: "one\ntwo", truncated: false, totalChars: 7 });
		expect(readdirSync(temp.path)).toEqual([]);
	});

	test("over the budget keeps the head and the tail around a notice and saves everything", async () => {
		const capture = new OutputCapture({ maxOutputTokens: 25, tempDir: join(temp.path, "nested"), host });
		for (let index = 0; index < 1000; index++) capture.append(`entry ${index}`);
		const output = await capture.finish();
		expect(output.truncated).toBe(true);
		expect(output.text.startsWith("entry 0\nentry 1\n")).toBe(true);
		expect(output.text.endsWith("entry 998\nentry 999")).toBe(true);
		expect(output.text).toMatch(
			/\[\.\.\. \d+ characters omitted: the output was \d+ characters, over the 25-token budget; the full output is in .+ \.\.\.\]/,
		);
		const kept = output.text.replace(/\n\n\[\.\.\..*\.\.\.\]\n\n/, "\n");
		expect(kept.length).toBeLessThanOrEqual(100);
		const saved = readFileSync(output.fullOutputPath ?? "", "utf8");
		expect(saved).toBe(Array.from({ length: 1000 }, (_, index) => `entry ${index}`).join("\n"));
		expect(saved.length).toBe(output.totalChars);
	});

	test("a single huge entry is cut too", async () => {
		const capture = new OutputCapture({ maxOutputTokens: 10, tempDir: temp.path, host });
		capture.append(`${"a".repeat(5000)}${"z".repeat(5000)}`);
		const output = await capture.finish();
		expect(output.text.startsWith("aaaa")).toBe(true);
		expect(output.text.endsWith("zzzz")).toBe(true);
		expect(output.text).toContain("10000 characters");
	});

	test("says so when the full output cannot be saved", async () => {
		const blocker = join(temp.path, "file");
		// A folder below a regular file cannot be created.
		writeFileSync(blocker, "x");
		const capture = new OutputCapture({ maxOutputTokens: 1, tempDir: join(blocker, "sub"), host });
		capture.append("0123456789");
		const output = await capture.finish();
		expect(output.fullOutputPath).toBeUndefined();
		expect(output.text).toContain("the full output could not be saved");
	});

	test.skipIf(process.platform !== "linux")(
		"a write the workspace fails names the file and the reason, and leaves no rejection unhandled",
		async () => {
			// Every write to /dev/full fails with ENOSPC, as on a full disk.
			const full = { ...host, fs: { ...host.fs, createWriteStream: () => host.fs.createWriteStream("/dev/full") } };
			const capture = new OutputCapture({ maxOutputTokens: 10, tempDir: temp.path, host: full });
			for (let index = 0; index < 2000; index++) capture.append(`entry ${index} ${"x".repeat(1000)}`);
			const output = await capture.finish();
			expect(output.fullOutputPath?.startsWith(temp.path)).toBe(true);
			expect(output.text).toMatch(/the first part of the output is in \S+ \(ENOSPC[^)]*\)/);
			expect(output.text.endsWith("x".repeat(10))).toBe(true);
		},
	);

	test("finish(signal) does not wait for the file once aborted, and says it may be incomplete", async () => {
		const capture = new OutputCapture({ maxOutputTokens: 10, tempDir: temp.path, host });
		for (let index = 0; index < 100; index++) capture.append(`entry ${index}`);
		const output = await capture.finish(AbortSignal.abort());
		expect(output.truncated).toBe(true);
		expect(output.text).toContain("(saving it was aborted; the file may be incomplete)");
		expect(output.text.endsWith("entry 99")).toBe(true);
		// The writes go on in the background and still complete the file.
		await capture.settled;
		const [name] = readdirSync(temp.path);
		assert.isDefined(name);
		expect(readFileSync(join(temp.path, name), "utf8").split("\n")).toHaveLength(100);
	});
});
