import { describe, expect, it } from "vitest";
import { applyChanges, normalizeEdits, planEdits } from "../../src/edit/apply.js";
import { decodeTextFile, type TextFile } from "../../src/edit/text-file.js";

function decode(text: string): TextFile {
	const file = decodeTextFile(Buffer.from(text, "utf8"));
	if (typeof file === "string") throw new Error(file);
	return file;
}

describe("normalizeEdits", () => {
	it("turns CRLF in oldText and newText into LF", () => {
		expect(normalizeEdits([{ oldText: "a\r\nb", newText: "c\r\n" }])).toEqual([{ oldText: "a\nb", newText: "c\n" }]);
	});

	it("refuses an oldText holding half of a surrogate pair", () => {
		expect(() => normalizeEdits([{ oldText: "\uD83D", newText: "x" }])).toThrow(/half of a surrogate pair/);
	});

	it("names every bad edit in one error", () => {
		expect(() =>
			normalizeEdits([
				{ oldText: "", newText: "x" },
				{ oldText: "ok", newText: "fine" },
				{ oldText: "same\r\n", newText: "same\n" },
			]),
		).toThrow(/^edits\[0\]\.oldText is empty.*\nedits\[2\] changes nothing/s);
	});
});

describe("planEdits", () => {
	it("returns the changes sorted by position with the number of loose matches", () => {
		const file = decode("first\nsecond “q”\nthird\n");
		const plan = planEdits(
			file,
			normalizeEdits([
				{ oldText: "third", newText: "3" },
				{ oldText: 'second "q"', newText: "2" },
			]),
			"f",
		);
		expect(plan).toEqual({
			changes: [
				{ start: 6, end: 16, replacement: "2" },
				{ start: 17, end: 22, replacement: "3" },
			],
			fuzzyMatches: 1,
		});
	});

	it("reports every edit that fails to match, not only the first", () => {
		const file = decode("a a b\n");
		expect(() =>
			planEdits(
				file,
				[
					{ oldText: "a", newText: "x" },
					{ oldText: "b", newText: "y" },
					{ oldText: "c", newText: "z" },
				],
				"f.txt",
			),
		).toThrow(/^edits\[0\]\.oldText was found 2 times in f\.txt.*\nedits\[2\]\.oldText was not found in f\.txt/s);
	});

	it("accepts edits that touch without overlapping", () => {
		const file = decode("abcdef");
		const plan = planEdits(
			file,
			[
				{ oldText: "def", newText: "D" },
				{ oldText: "abc", newText: "A" },
			],
			"f",
		);
		expect(applyChanges(file, plan.changes).toString("utf8")).toBe("AD");
	});
});

describe("applyChanges", () => {
	it("copies the untouched bytes around multibyte text, CRLF and a BOM", () => {
		const file = decode("\uFEFFgrüße\r\n😀 ok “q”\r\nfin é\r\n");
		const plan = planEdits(
			file,
			normalizeEdits([
				{ oldText: "ok", newText: "très\nbien" },
				{ oldText: "é", newText: "e" },
				{ oldText: "grüße", newText: "hi" },
			]),
			"f",
		);
		expect(applyChanges(file, plan.changes)).toEqual(
			Buffer.from("\uFEFFhi\r\n😀 très\r\nbien “q”\r\nfin e\r\n", "utf8"),
		);
	});

	it("writes untouched CRLF text back as it was and new lines with CRLF", () => {
		const file = decode("one\r\ntwo\r\nthree\nfour\r\n");
		const plan = planEdits(
			file,
			normalizeEdits([
				{ oldText: "two\nthree", newText: "2\n3" },
				{ oldText: "four", newText: "4\n4.5" },
			]),
			"f",
		);
		expect(applyChanges(file, plan.changes).toString("utf8")).toBe("one\r\n2\r\n3\n4\r\n4.5\r\n");
	});
});
