import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { splitInvocation, splitQuotedWords } from "../src/shell-words.js";

/** How sandbox-runtime writes a word: bare when nothing in it is special, else in single quotes. */
function runtimeQuoted(word: string): string {
	if (word !== "" && /^[A-Za-z0-9_./:@+,-][A-Za-z0-9_./:=@+,-]*$/.test(word)) return word;
	return `'${word.replaceAll("'", `'"'"'`)}'`;
}

const WORDS = [
	"/usr/bin/bwrap",
	"--ro-bind",
	"/home/a b/it's",
	"",
	"=x",
	"a=b",
	"$HOME `id` \\n * ? [x] {a,b} ~",
	"line one\nline two",
	"'",
	"''quoted''",
	'"double"',
];

describe("splitQuotedWords", () => {
	it("reads sandbox-runtime's quoting as bash reads it", () => {
		const line = WORDS.map(runtimeQuoted).join(" ");
		const byBash = execFileSync("bash", ["--norc", "--noprofile", "-c", `printf '%s\\0' ${line}`])
			.toString("utf8")
			.split("\0")
			.slice(0, -1);
		expect(byBash).toEqual(WORDS);
		expect(splitQuotedWords(line)).toEqual(WORDS);
	});

	it("leaves to bash anything a shell could read differently", () => {
		for (const line of ["a $HOME", "a\\ b", "a *", "a  b", "a ", "'open", "a ~", "a;b", 'a "b"', "a\tb", "a `b`"]) {
			expect(splitQuotedWords(line), line).toBeUndefined();
		}
	});

	it("splitInvocation falls back to bash for the rest", async () => {
		expect(await splitInvocation("bash", "a 'b c'")).toEqual(["a", "b c"]);
		expect(await splitInvocation("bash", 'a "b c"')).toEqual(["a", "b c"]);
	});
});
