import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { OutputCapture } from "../../src/codemode/index.js";
import { makeTempDir } from "./fixtures.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
	temp = makeTempDir();
});
afterEach(() => temp.remove());

describe("OutputCapture", () => {
	test("joins entries with newlines and keeps everything within the budget", () => {
		const capture = new OutputCapture({ maxOutputTokens: 10, tempDir: temp.path });
		capture.append("one");
		capture.append("two");
		expect(capture.finish()).toEqual({ text: "one\ntwo", truncated: false, totalChars: 7 });
		expect(readdirSync(temp.path)).toEqual([]);
	});

	test("over the budget keeps the head and the tail around a notice and saves everything", () => {
		const capture = new OutputCapture({ maxOutputTokens: 25, tempDir: join(temp.path, "nested") });
		for (let index = 0; index < 1000; index++) capture.append(`entry ${index}`);
		const output = capture.finish();
		expect(output.truncated).toBe(true);
		expect(output.text.startsWith("entry 0\nentry 1\n")).toBe(true);
		expect(output.text.endsWith("entry 998\nentry 999")).toBe(true);
		expect(output.text).toMatch(
			/\[\.\.\. \d+ characters omitted: the output was \d+ characters, over the 25-token budget; the full output is in .+ \.\.\.\]/,
		);
		const kept = output.text.replace(/\n\n\[\.\.\..*\.\.\.\]\n\n/, "\n");
		expect(kept.length).toBeLessThanOrEqual(100);
		const saved = readFileSync(output.fullOutputPath ?? "", "utf8");
		expect(saved.split("\n")).toHaveLength(1000);
		expect(saved.length).toBe(output.totalChars);
	});

	test("a single huge entry is cut too", () => {
		const capture = new OutputCapture({ maxOutputTokens: 10, tempDir: temp.path });
		capture.append(`${"a".repeat(5000)}${"z".repeat(5000)}`);
		const output = capture.finish();
		expect(output.text.startsWith("aaaa")).toBe(true);
		expect(output.text.endsWith("zzzz")).toBe(true);
		expect(output.text).toContain("10000 characters");
	});

	test("says so when the full output cannot be saved", () => {
		const blocker = join(temp.path, "file");
		// A folder below a regular file cannot be created.
		writeFileSync(blocker, "x");
		const capture = new OutputCapture({ maxOutputTokens: 1, tempDir: join(blocker, "sub") });
		capture.append("0123456789");
		const output = capture.finish();
		expect(output.fullOutputPath).toBeUndefined();
		expect(output.text).toContain("the full output could not be saved");
	});
});
