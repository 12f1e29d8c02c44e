import fastGlob from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walkGlob } from "../src/search/glob-walk.js";
import { localFileSystem } from "../src/workspace/local/file-system.js";
import { localGlob } from "../src/workspace/local/glob.js";
import { makeTempFolder, writeTree } from "./search/fixture.js";

// find read its patterns through fast-glob until it walked the tree itself: on a tree without
// .gitignore files, links, `.git` or `node_modules` (which fast-glob alone does not handle as find
// does), the local glob must select exactly what fast-glob selected with find's options.
const FILES = [
	"a.ts",
	"b.ts",
	"ab.ts",
	"a1.ts",
	"Upper.TS",
	"!bang.ts",
	"1.txt",
	"file1.txt",
	"file2.txt",
	"file10.txt",
	"sp ace.txt",
	"paren(1).txt",
	"brace{x}.txt",
	"star*.txt",
	"x",
	".env",
	".hidden/x.ts",
	".hidden/.inner.md",
	"src/a.ts",
	"src/b.ts",
	"src/a/c.ts",
	"src/b/d.js",
	"src/nested/y.md",
	"src/nested/deep/x.md",
	"docs/readme.md",
	"docs/a/b/c/deep.ts",
	"deep/z.txt",
];

const PATTERNS = [
	"*.ts",
	"**/*.ts",
	"*",
	"**",
	"**/*",
	"a.ts",
	"x",
	"src/a.ts",
	"src//a.ts",
	"src/",
	"src/*.ts",
	"src/**/*.ts",
	"src/**",
	"src/*/*",
	"*/*.ts",
	"*/*/*",
	"**/deep/**",
	"src/**/deep/*",
	"*/nested/**/*.md",
	"{a,b}.ts",
	"{a,src/b}.ts",
	"src/{a,b}/*.{ts,js}",
	"{src,docs}/**/*.md",
	"{a,}.ts",
	"file{1..3}.txt",
	"file{1..10}.txt",
	"file{01..10}.txt",
	"file{1..10..9}.txt",
	"file{3..1}.txt",
	"{a..b}.ts",
	"file{1..2}{0..0}.txt",
	"[ab].ts",
	"[!a]*.ts",
	"[[:digit:]]*.txt",
	"a?.ts",
	"**/*[0-9].txt",
	"+(a|b).ts",
	"@(a|b).ts",
	"!(a).ts",
	"*.TS",
	".*",
	".hidden/*",
	"**/.inner.md",
	"sp ace*",
	"paren(1).txt",
	"brace{x}.txt",
	"star\\*.txt",
	"!*.ts",
	"!src/*.ts",
	"{!a,b}.ts",
	"*.nothing",
];

let root: string;
let remove: () => Promise<void>;
beforeAll(async () => {
	({ root, remove } = await makeTempFolder());
	await writeTree(root, Object.fromEntries(FILES.map((file) => [file, ""])));
});
afterAll(() => remove());

describe("the local find glob reads patterns as fast-glob does", () => {
	it.each(PATTERNS)("%s", async (pattern) => {
		const expected = await fastGlob(pattern, {
			cwd: root,
			dot: true,
			baseNameMatch: true,
			onlyFiles: true,
			followSymbolicLinks: false,
		});
		expect((await localGlob(pattern, root, undefined)).sort()).toEqual(expected.sort());
		// The walk over a workspace without a glob fast path (an SSH host without rg) reads it alike.
		expect((await walkGlob(localFileSystem, pattern, root, undefined)).sort()).toEqual(expected.sort());
	});

	it("differs on purpose where fast-glob gave paths that are not the files' relative paths", async () => {
		// fast-glob: ["./src/a.ts", "./src/b.ts"] and ["x/"] (a file looked up with a trailing slash).
		expect((await localGlob("./src/*.ts", root, undefined)).sort()).toEqual(["src/a.ts", "src/b.ts"]);
		expect(await localGlob("x/", root, undefined)).toEqual([]);
	});

	it("refuses a range of more than 1000 values, as fast-glob did, with a clear error", async () => {
		await expect(localGlob("file{1..2000}.txt", root, undefined)).rejects.toThrow(
			"The range {1..2000} in the pattern stands for more than 1000 values; use a wildcard such as * instead.",
		);
	});
});
