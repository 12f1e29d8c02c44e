import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatch } from "diff";
import { describe, expect, it } from "vitest";
import type { TextChange } from "../../src/edit/apply.js";
import { unifiedDiff } from "../../src/edit/diff.js";
import { itemAt } from "../helpers/item-at.js";

function applied(text: string, changes: TextChange[]): string {
	let result = "";
	let from = 0;
	for (const change of changes) {
		result += text.slice(from, change.start) + change.replacement;
		from = change.end;
	}
	return result + text.slice(from);
}

function change(text: string, oldText: string, replacement: string): TextChange {
	const start = text.indexOf(oldText);
	return { start, end: start + oldText.length, replacement };
}

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join("");

describe("unifiedDiff", () => {
	it("shows one hunk with 3 lines of context and line numbers", () => {
		const text = numbered(10);
		const { diff, firstChangedLine } = unifiedDiff(text, [change(text, "line 5\n", "five\nfive b\n")], { path: "f" });
		expect(diff).toBe(
			[
				"--- f",
				"+++ f",
				"@@ -2,7 +2,8 @@",
				" line 2",
				" line 3",
				" line 4",
				"-line 5",
				"+five",
				"+five b",
				" line 6",
				" line 7",
				" line 8",
			].join("\n"),
		);
		expect(firstChangedLine).toBe(5);
	});

	it("merges changes whose context meets and keeps distant ones apart, shifting the new line numbers", () => {
		const text = numbered(40);
		const changes = [
			change(text, "line 3\n", "a\nb\n"),
			change(text, "line 9\n", ""),
			change(text, "line 30\n", "thirty\n"),
		];
		const headers = unifiedDiff(text, changes, { path: "f" })
			.diff.split("\n")
			.filter((line) => line.startsWith("@@"));
		expect(headers).toEqual(["@@ -1,12 +1,12 @@", "@@ -27,7 +27,7 @@"]);
	});

	it("shows changes inside one line and two changes on the same line", () => {
		const text = "const a = 1, b = 2;\n";
		const changes = [change(text, "1", "10"), change(text, "2", "20")];
		expect(unifiedDiff(text, changes, { path: "f" }).diff).toBe(
			"--- f\n+++ f\n@@ -1,1 +1,1 @@\n-const a = 1, b = 2;\n+const a = 10, b = 20;",
		);
	});

	it("marks a last line without a newline, and an emptied file", () => {
		const text = "a\nb";
		expect(unifiedDiff(text, [change(text, "b", "c")], { path: "f" }).diff).toBe(
			"--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file",
		);
		const whole = "only\n";
		expect(unifiedDiff(whole, [change(whole, "only\n", "")], { path: "f" })).toEqual({
			diff: "--- f\n+++ f\n@@ -1,1 +0,0 @@\n-only",
			firstChangedLine: 1,
		});
	});

	it("produces patches that apply back to the new text (random edits)", () => {
		let seed = 42;
		const random = (limit: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % limit;
		};
		for (let round = 0; round < 300; round++) {
			const lines = Array.from({ length: 1 + random(60) }, (_, index) => `${index}:${"x".repeat(random(5))}`);
			const text = lines.join("\n") + (random(2) === 0 ? "\n" : "");
			const cuts = Array.from({ length: 2 * (1 + random(4)) }, () => random(text.length + 1)).sort((a, b) => a - b);
			const changes: TextChange[] = [];
			for (let index = 0; index < cuts.length; index += 2) {
				const start = itemAt(cuts, index);
				const end = itemAt(cuts, index + 1);
				const previous = changes.at(-1);
				if (end <= start || (previous !== undefined && start < previous.end)) continue;
				const replacement = itemAt(["", "new\n", "n", "\nmore\nlines", "z\n\n"], random(5));
				changes.push({ start, end, replacement });
			}
			if (changes.length === 0) continue;
			const expected = applied(text, changes);
			const { diff } = unifiedDiff(text, changes, { path: "f" });
			expect(applyPatch(text, diff), `round ${round}:\n${diff}`).toBe(expected);
		}
	});

	it("is accepted by GNU patch", async () => {
		const folder = await mkdtemp(join(tmpdir(), "gantry-diff-"));
		try {
			const text = numbered(30);
			const changes = [change(text, "line 2\n", "two\n"), change(text, "line 20\nline 21\n", "x\n")];
			await writeFile(join(folder, "f"), text);
			await writeFile(join(folder, "f.patch"), `${unifiedDiff(text, changes, { path: "f" }).diff}\n`);
			execFileSync("patch", ["--quiet", "f", "f.patch"], { cwd: folder });
			expect(await readFile(join(folder, "f"), "utf8")).toBe(applied(text, changes));
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});

	it("stays correct when a huge replacement exceeds the line-diff budget", () => {
		const text = numbered(5000);
		const replacement = Array.from({ length: 5000 }, (_, index) => `other ${index}\n`).join("");
		const changes = [{ start: 0, end: text.length, replacement }];
		const { diff, firstChangedLine } = unifiedDiff(text, changes, { path: "f" });
		expect(firstChangedLine).toBe(1);
		expect(applyPatch(text, diff)).toBe(replacement);
	});
});
