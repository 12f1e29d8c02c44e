import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { GitignoreFile } from "../../src/search/gitignore-file.js";

const RULES = [
	"*.log",
	"!keep.log",
	"/dist",
	"build/",
	"docs/*.md",
	"!docs/README.md",
	"**/cache/**",
	"tmp-*",
	"*~",
	"[Bb]in/",
	"\\#hash",
	"trailing-space\\ ",
	"# a comment",
	"",
].join("\n");

const PATHS: [string, boolean][] = [
	["a.log", false],
	["keep.log", false],
	["src/keep.log", false],
	["src/deep/a.log", false],
	["dist", true],
	["dist", false],
	["src/dist", true],
	["build", true],
	["build", false],
	["src/build", true],
	["docs/a.md", false],
	["docs/README.md", false],
	["src/docs/a.md", false],
	["x/cache/y.ts", false],
	["tmp-1", true],
	["a/tmp-2.txt", false],
	["file.ts~", false],
	["bin", true],
	["Bin", true],
	["src/bin", true],
	["#hash", false],
	["trailing-space ", false],
	["plain.ts", false],
	["src/plain.ts", false],
];

describe("GitignoreFile", () => {
	it("gives the ignore package's verdict for every path, with or without the name shortcut", () => {
		const reference = ignore({ ignorecase: false }).add(RULES);
		const file = new GitignoreFile(RULES);
		for (const [path, isDirectory] of PATHS) {
			const expected = reference.test(isDirectory ? `${path}/` : path);
			const verdict = expected.ignored ? true : expected.unignored ? false : undefined;
			const name = path.slice(path.lastIndexOf("/") + 1);
			expect([path, isDirectory, file.test(path, name, isDirectory)]).toEqual([path, isDirectory, verdict]);
		}
	});

	it("matches names case-sensitively, as git does on Linux", () => {
		const file = new GitignoreFile("*.LOG\n");
		expect(file.test("a.LOG", "a.LOG", false)).toBe(true);
		expect(file.test("a.log", "a.log", false)).toBeUndefined();
	});
});
