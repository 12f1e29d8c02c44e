import { describe, expect, it } from "vitest";
import { FileSearcher, type GrepLine } from "../../src/grep/file-searcher.js";
import { compilePattern } from "../../src/grep/pattern.js";

/** Feeds `text` to a searcher in runs of whole lines, cut after every `linesPerRun` lines. */
function search(text: string, pattern: string, options: { context?: number; max?: number; linesPerRun?: number } = {}) {
	const compiled = compilePattern({ pattern, literal: false, ignoreCase: false });
	const searcher = new FileSearcher(compiled, options.context ?? 0, options.max ?? 1000);
	const lines = text.split(/(?<=\n)/);
	const perRun = options.linesPerRun ?? lines.length;
	const complete = text.endsWith("\n") ? lines : lines.slice(0, -1);
	let index = 0;
	while (index < complete.length && !searcher.finished) {
		searcher.push(Buffer.from(complete.slice(index, index + perRun).join("")), false);
		index += perRun;
	}
	// What follows the last newline: the unfinished last line, or nothing.
	searcher.push(Buffer.from(text.slice(text.lastIndexOf("\n") + 1)), true);
	return searcher.lines;
}

const show = (lines: GrepLine[]) => lines.map((line) => `${line.line}${line.match ? ":" : "-"}${line.text}`);

const numbered = `${Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;

describe("FileSearcher", () => {
	it("gives the same lines whatever the runs the file comes in", () => {
		const whole = show(search(numbered, "line (3|9|10|20)$", { context: 2 }));
		expect(whole).toEqual([
			"1-line 1",
			"2-line 2",
			"3:line 3",
			"4-line 4",
			"5-line 5",
			"7-line 7",
			"8-line 8",
			"9:line 9",
			"10:line 10",
			"11-line 11",
			"12-line 12",
			"18-line 18",
			"19-line 19",
			"20:line 20",
		]);
		for (const linesPerRun of [1, 2, 3, 7]) {
			expect(show(search(numbered, "line (3|9|10|20)$", { context: 2, linesPerRun }))).toEqual(whole);
		}
	});

	it("takes before-context from runs that had no candidate", () => {
		expect(show(search(numbered, "line 15$", { context: 3, linesPerRun: 4 }))).toEqual([
			"12-line 12",
			"13-line 13",
			"14-line 14",
			"15:line 15",
			"16-line 16",
			"17-line 17",
			"18-line 18",
		]);
	});

	it("stops at the match limit, after the trailing context", () => {
		const lines = search(numbered, "line", { context: 1, max: 2, linesPerRun: 1 });
		expect(show(lines)).toEqual(["1:line 1", "2:line 2", "3-line 3"]);
	});

	it("handles a last line without a line break, empty lines and CRLF", () => {
		expect(show(search("a\r\n\r\nb\r\nlast a", "^a$|^$|a$"))).toEqual(["1:a\r", "2:\r", "4:last a"]);
	});

	it("matches every line for a pattern that matches the empty string, but no line after the last", () => {
		expect(show(search("x\ny\n", "z*"))).toEqual(["1:x", "2:y"]);
		expect(show(search("", "z*"))).toEqual([]);
	});

	it("never matches a literal holding a line break", () => {
		const compiled = compilePattern({ pattern: "a\nb", literal: true, ignoreCase: false });
		const searcher = new FileSearcher(compiled, 0, 10);
		searcher.push(Buffer.from("a\nb\n"), true);
		expect(searcher.lines).toEqual([]);
		expect(searcher.finished).toBe(true);
	});

	it("rejects an invalid regular expression with a hint", () => {
		expect(() => compilePattern({ pattern: "[", literal: false, ignoreCase: false })).toThrow(
			/Invalid regular expression "\[".*Use literal: true/,
		);
		expect(compilePattern({ pattern: "\\-x", literal: false, ignoreCase: false }).line.test("-x")).toBe(true);
	});
});
