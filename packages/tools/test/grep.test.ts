import { chmod, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { plainTheme } from "@gantry/extensions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepToolDefinition } from "../src/grep/grep.js";
import type { GrepToolDetails, GrepToolInput, GrepToolOptions } from "../src/grep/types.js";
import { ripgrepAvailable } from "./grep/ripgrep-available.js";
import { makeTempFolder, writeSearchFixture, writeTree } from "./search/fixture.js";

type Result = Awaited<ReturnType<ReturnType<typeof createGrepToolDefinition>["execute"]>>;

function textOf(result: Result): string {
	const [block] = result.content;
	if (block === undefined) throw new Error("The result has no content");
	return block.type === "text" ? block.text : "";
}

function grep(root: string, params: GrepToolInput, options: GrepToolOptions = {}, signal?: AbortSignal) {
	return createGrepToolDefinition(root, options).execute("call", params, signal, undefined, undefined as never);
}

let root: string;
let remove: () => Promise<void>;
beforeAll(async () => {
	({ root, remove } = await makeTempFolder());
	await writeSearchFixture(root);
	await writeTree(root, {
		"regex/dots.txt": "a.pha literal dots\nalpha plain\n",
		"regex/many.txt": Array.from({ length: 10 }, (_, index) => `hit ${index}`).join("\n"),
	});
});
afterAll(() => remove());

for (const engine of ["builtin", "ripgrep"] as const) {
	describe.skipIf(engine === "ripgrep" && !ripgrepAvailable)(`grep with the ${engine} engine`, () => {
		const run = (params: GrepToolInput) => grep(root, params, { engine });
		const paths = async (params: GrepToolInput) => {
			const result = await run(params);
			const matches = (result.structuredContent as { matches: { path: string }[] }).matches;
			return [...new Set(matches.map((match) => match.path))];
		};

		it("respects .gitignore files, nested ones and negations, and skips .git", async () => {
			const found = await paths({ pattern: "alpha" });
			expect(found).toContain("sub/keep.log");
			expect(found).toContain("sub/deep/top-only.txt");
			for (const ignored of [
				"build/out.js",
				"app.log",
				"top-only.txt",
				"sub/other.log",
				"sub/generated/gen.ts",
				".git/config",
				".git/HEAD",
			])
				expect(found).not.toContain(ignored);
		});

		it("searches hidden files, skips binary files and does not follow links", async () => {
			const found = await paths({ pattern: "alpha" });
			expect(found).toContain(".env");
			expect(found).toContain(".hidden/secret.ts");
			expect(found).not.toContain("bin.dat");
			expect(found).not.toContain("link-to-a.ts");
			expect(found.some((path) => path.startsWith("link-to-sub/"))).toBe(false);
		});

		it("prints `path:line: text`, sorted by path then line, relative to the searched folder", async () => {
			const result = await run({ pattern: "alpha", path: "sub" });
			expect(textOf(result)).toBe(
				[
					"deep/-dash.ts:1: -flag alpha",
					"deep/top-only.txt:1: alpha not ignored: the rule is anchored",
					"keep.log:1: alpha kept by !keep.log",
				].join("\n"),
			);
			expect(result.details?.engine).toBe(engine);
			expect(result.structuredContent).toEqual({
				matches: [
					{ path: "deep/-dash.ts", line: 1, text: "-flag alpha" },
					{ path: "deep/top-only.txt", line: 1, text: "alpha not ignored: the rule is anchored" },
					{ path: "keep.log", line: 1, text: "alpha kept by !keep.log" },
				],
				truncated: false,
			});
		});

		it("prints context lines as `path-line- text` and separates groups with --", async () => {
			const result = await run({ pattern: "alpha", path: "c.js", context: 1 });
			expect(textOf(result)).toBe(
				[
					"c.js-2- two",
					"c.js:3: three alpha",
					"c.js-4- four",
					"--",
					"c.js-7- seven",
					"c.js:8: eight alpha",
					"c.js-9- nine",
				].join("\n"),
			);
		});

		it("merges overlapping context and separates files with --", async () => {
			const result = await run({ pattern: "alpha", path: ".", glob: "{a.ts,b.md}", context: 2 });
			expect(textOf(result)).toBe(
				[
					"a.ts:1: const alpha = 1;",
					"a.ts-2- const beta = 2;",
					"a.ts-3- // ALPHA upper",
					"a.ts:4: -flag alpha",
					"a.ts-5- final line",
					"--",
					"b.md-1- # Title",
					"b.md-2- ",
					"b.md:3: alpha in markdown",
				].join("\n"),
			);
		});

		it("adds a notice when the limit cut the matches", async () => {
			const result = await run({ pattern: "hit", path: "regex", limit: 3 });
			expect(textOf(result)).toBe(
				[
					"many.txt:1: hit 0",
					"many.txt:2: hit 1",
					"many.txt:3: hit 2",
					"",
					"[3 matches limit reached. Use limit=6 for more, or refine the pattern]",
				].join("\n"),
			);
			expect(result.details).toMatchObject({ matchCount: 3, matchLimitReached: 3 });
			expect(result.structuredContent).toMatchObject({ truncated: true });
			const exact = await run({ pattern: "hit", path: "regex", limit: 10 });
			expect(textOf(exact)).not.toContain("limit reached");
		});

		it("treats the pattern as a regular expression unless literal is set", async () => {
			expect(await paths({ pattern: "a.pha", path: "regex" })).toEqual(["dots.txt"]);
			const regex = await run({ pattern: "a.pha", path: "regex/dots.txt" });
			expect(textOf(regex)).toBe("dots.txt:1: a.pha literal dots\ndots.txt:2: alpha plain");
			const literal = await run({ pattern: "a.pha", path: "regex/dots.txt", literal: true });
			expect(textOf(literal)).toBe("dots.txt:1: a.pha literal dots");
		});

		it("matches regardless of case with ignoreCase, also beyond ASCII", async () => {
			const sensitive = await run({ pattern: "älpha", path: "unicode.txt" });
			expect(textOf(sensitive)).toBe("No matches found");
			const insensitive = await run({ pattern: "älpha", path: "unicode.txt", ignoreCase: true });
			expect(textOf(insensitive)).toBe("unicode.txt:1: Ärger ÄLPHA straße");
			const literal = await run({ pattern: "ALPHA", path: "a.ts", literal: true, ignoreCase: true });
			expect(textOf(literal)).toContain("a.ts:3: // ALPHA upper");
		});

		it("filters files with a glob: names at any depth, paths, alternatives and exclusions", async () => {
			expect(await paths({ pattern: "alpha", glob: "*.ts" })).toEqual([
				".hidden/secret.ts",
				"a.ts",
				"sub/deep/-dash.ts",
			]);
			expect(await paths({ pattern: "alpha", glob: "sub/**" })).toEqual([
				"sub/deep/-dash.ts",
				"sub/deep/top-only.txt",
				"sub/keep.log",
			]);
			expect(await paths({ pattern: "alpha", glob: "*.{md,js}" })).toEqual([
				"b.md",
				"c.js",
				"node_modules/pkg/index.js",
			]);
			const excluded = await paths({ pattern: "alpha", glob: "!*.ts" });
			expect(excluded).toContain("b.md");
			expect(excluded.some((path) => path.endsWith(".ts"))).toBe(false);
			// A glob never brings back what .gitignore leaves out.
			expect(await paths({ pattern: "alpha", glob: "*.log" })).toEqual(["sub/keep.log"]);
		});

		it("takes a pattern that starts with - as a pattern, never as a flag", async () => {
			const result = await run({ pattern: "-flag" });
			expect(textOf(result)).toBe("a.ts:4: -flag alpha\nsub/deep/-dash.ts:1: -flag alpha");
			const dashes = await run({ pattern: "--files", literal: true });
			expect(textOf(dashes)).toBe("No matches found");
		});

		it("cuts long lines at 500 characters with a notice", async () => {
			const result = await run({ pattern: "alpha", path: "long.txt" });
			const [line, blank, notice] = textOf(result).split("\n");
			expect(line).toBe(`long.txt:1: alpha ${"x".repeat(494)}... [truncated]`);
			expect(blank).toBe("");
			expect(notice).toBe("[Some lines were cut at 500 characters. Use read to see them whole]");
			expect(result.details?.linesTruncated).toBe(true);
		});

		it("searches a single file under its name, CRLF and BOM files shown clean", async () => {
			expect(textOf(await run({ pattern: "beta$", path: "crlf.txt" }))).toBe("crlf.txt:2: beta");
			expect(textOf(await run({ pattern: "alpha\\$$", path: "crlf.txt" }))).toBe("crlf.txt:3: alpha$");
			expect(textOf(await run({ pattern: "one", path: "crlf.txt" }))).toBe("crlf.txt:1: alpha one");
			expect(textOf(await run({ pattern: "alpha", path: "bom.txt" }))).toBe("bom.txt:1: alpha with bom");
			expect(textOf(await run({ pattern: "alpha", path: "no-newline.txt" }))).toBe("no-newline.txt:2: last alpha");
			expect(textOf(await run({ pattern: "alpha", path: "bin.dat" }))).toBe("No matches found");
			expect(textOf(await run({ pattern: "alpha", path: "build" }))).toBe("out.js:1: alpha ignored by build/");
		});

		it("streams files larger than its buffer: line numbers and context across chunks, late NUL bytes", async () => {
			const { root: big, remove: removeBig } = await makeTempFolder();
			try {
				const lines = Array.from({ length: 40_000 }, (_, index) => `row ${index + 1}`);
				lines[25_000] = "row 25001 needle";
				lines[39_999] = "row 40000 needle";
				await writeTree(big, {
					"large.txt": `${lines.join("\n")}\n`,
					"late-nul.txt": Buffer.concat([Buffer.from(`needle\n${"x\n".repeat(200_000)}`), Buffer.from([0, 10])]),
				});
				const result = await grep(big, { pattern: "needle", context: 1 }, { engine });
				expect(textOf(result)).toBe(
					[
						"large.txt-25000- row 25000",
						"large.txt:25001: row 25001 needle",
						"large.txt-25002- row 25002",
						"--",
						"large.txt-39999- row 39999",
						"large.txt:40000: row 40000 needle",
					].join("\n"),
				);
			} finally {
				await removeBig();
			}
		});

		it('says "No matches found" without failing', async () => {
			const result = await run({ pattern: "zzz-not-there" });
			expect(result.isError).toBeUndefined();
			expect(textOf(result)).toBe("No matches found");
			expect(result.structuredContent).toEqual({ matches: [], truncated: false });
		});

		it("fails clearly for a missing path", async () => {
			await expect(run({ pattern: "alpha", path: "nope" })).rejects.toThrow(`Path not found: ${join(root, "nope")}`);
		});

		it("fails before doing anything when the signal is already aborted", async () => {
			const controller = new AbortController();
			controller.abort();
			await expect(grep(root, { pattern: "alpha" }, { engine }, controller.signal)).rejects.toThrow(
				"Operation aborted",
			);
		});
	});
}

describe("a pattern too long for rg's command line", () => {
	// About 200 KB: over the 128 KiB one argument may hold on Linux, so rg could not even start.
	const pattern = [...Array.from({ length: 20_000 }, (_, index) => `absent${index}`), "alpha plain"].join("|");

	it.skipIf(!ripgrepAvailable)("the ripgrep engine says so, the limit and what to do, before starting rg", async () => {
		expect(pattern.length).toBeGreaterThan(200_000);
		await expect(grep(root, { pattern, path: "regex" }, { engine: "ripgrep" })).rejects.toThrow(
			new RegExp(
				`pattern is too long for the ripgrep engine: ${pattern.length} bytes, .* at most 32768 bytes .*` +
					'split an alternation into several searches, or use engine "builtin"',
			),
		);
		await expect(
			grep(root, { pattern: "alpha", glob: `{${"x".repeat(40_000)},*.txt}` }, { engine: "ripgrep" }),
		).rejects.toThrow("pattern is too long for the ripgrep engine: 5 bytes, and the glob 40008, while");
	});

	it("the built-in engine searches with it, and auto picks the built-in engine for it", async () => {
		for (const engine of ["builtin", "auto"] as const) {
			const result = await grep(root, { pattern, path: "regex" }, { engine });
			expect(result.details?.engine).toBe("builtin");
			expect(textOf(result)).toBe("dots.txt:2: alpha plain");
		}
	});
});

describe("grep errors and engine choice", () => {
	it("reports an invalid regular expression clearly", async () => {
		const failure = grep(root, { pattern: "(unclosed" }, { engine: "builtin" });
		await expect(failure).rejects.toThrow(
			/^Invalid regular expression "\(unclosed": Unterminated group\. Use literal: true/,
		);
		// Said once: V8's own "Invalid regular expression: /(unclosed/m:" prefix is not repeated.
		await expect(failure).rejects.not.toThrow(/regular expression.*regular expression/s);
		expect(textOf(await grep(root, { pattern: "(unclosed", literal: true }, { engine: "builtin" }))).toBe(
			"No matches found",
		);
	});

	it.skipIf(!ripgrepAvailable)("auto uses ripgrep, and the built-in engine for patterns rg rejects", async () => {
		const plain = await grep(root, { pattern: "alpha", path: "b.md" });
		expect(plain.details?.engine).toBe("ripgrep");
		const lookbehind = await grep(root, { pattern: "(?<=const )alpha", path: "a.ts" });
		expect(lookbehind.details?.engine).toBe("builtin");
		expect(textOf(lookbehind)).toBe("a.ts:1: const alpha = 1;");
		await expect(grep(root, { pattern: "(?<=const )alpha" }, { engine: "ripgrep" })).rejects.toThrow(
			/ripgrep rejected the pattern.*look-around/s,
		);
	});

	it("auto uses the built-in engine when rg is not on PATH, and the ripgrep engine says it is missing", async () => {
		const { root: empty, remove: removeEmpty } = await makeTempFolder("gantry-no-rg-");
		const path = process.env.PATH;
		process.env.PATH = empty;
		try {
			const result = await grep(root, { pattern: "alpha", path: "b.md" });
			expect(result.details?.engine).toBe("builtin");
			await expect(grep(root, { pattern: "alpha" }, { engine: "ripgrep" })).rejects.toThrow(
				/needs `rg` on PATH.*engine "builtin"/,
			);
		} finally {
			process.env.PATH = path;
			await removeEmpty();
		}
	});

	it("auto falls back to the built-in engine when rg does not start", async () => {
		const { root: bin, remove: removeBin } = await makeTempFolder("gantry-broken-rg-");
		await writeTree(bin, { rg: "#!/nonexistent/interpreter\n" });
		await chmod(join(bin, "rg"), 0o755);
		const path = process.env.PATH;
		process.env.PATH = `${bin}${delimiter}${path}`;
		try {
			const result = await grep(root, { pattern: "alpha", path: "b.md" });
			expect(result.details?.engine).toBe("builtin");
			expect(textOf(result)).toBe("b.md:3: alpha in markdown");
			await expect(grep(root, { pattern: "alpha" }, { engine: "ripgrep" })).rejects.toThrow("Could not run ripgrep");
		} finally {
			process.env.PATH = path;
			await removeBin();
		}
	});

	it("auto uses the built-in engine over custom operations", async () => {
		const { localGrepOperations } = await import("../src/grep/grep.js");
		const opened: string[] = [];
		const result = await grep(
			root,
			{ pattern: "alpha", path: "sub" },
			{
				operations: {
					...localGrepOperations,
					open: (path) => {
						opened.push(path);
						return localGrepOperations.open(path);
					},
				},
			},
		);
		expect(result.details?.engine).toBe("builtin");
		expect(opened.sort()).toEqual(
			["sub/.gitignore", "sub/deep/-dash.ts", "sub/deep/top-only.txt", "sub/keep.log"].map((path) => `${root}/${path}`),
		);
	});

	it("rejects a bad limit or context and an empty pattern", async () => {
		await expect(grep(root, { pattern: "alpha", limit: 0 })).rejects.toThrow(
			"limit must be a whole number of 1 or more",
		);
		await expect(grep(root, { pattern: "alpha", context: -1 })).rejects.toThrow("context must be a whole number");
		await expect(grep(root, { pattern: "" })).rejects.toThrow("pattern is required");
	});

	it("treats null optional fields like missing ones", async () => {
		const params = {
			pattern: "alpha",
			path: null,
			glob: null,
			ignoreCase: null,
			literal: null,
			context: null,
			limit: null,
		};
		const result = await grep(root, params as unknown as GrepToolInput, { engine: "builtin" });
		expect(textOf(result)).toContain("a.ts:1: const alpha = 1;");
	});

	it("bounds the output to 50 KB with a notice", async () => {
		const { root: big, remove: removeBig } = await makeTempFolder();
		try {
			await writeTree(big, {
				"wide.txt": Array.from({ length: 400 }, (_, index) => `match ${index} ${"y".repeat(300)}`).join("\n"),
			});
			const result = await grep(big, { pattern: "match", limit: 1000 }, { engine: "builtin" });
			const text = textOf(result);
			expect(Buffer.byteLength(text)).toBeLessThan(51 * 1024);
			expect(text).toMatch(/\[Output cut at 50\.0 KB: \d+ of 400 matches shown\. Use a smaller limit/);
			const details = result.details as GrepToolDetails;
			expect(details.truncation?.truncatedBy).toBe("bytes");
			const structured = result.structuredContent as { matches: unknown[]; truncated: boolean };
			expect(structured.truncated).toBe(true);
			expect(structured.matches.length).toBe(details.matchCount);
			expect(details.matchCount).toBeLessThan(400);
		} finally {
			await removeBig();
		}
	});

	it("renders the call and the result", async () => {
		const definition = createGrepToolDefinition(root, { engine: "builtin" });
		expect(definition.renderCall?.({ pattern: "alpha", path: "sub", glob: "*.ts", context: 2 }, plainTheme)).toBe(
			"grep /alpha/ sub (*.ts, context 2)",
		);
		const result = await grep(root, { pattern: "alpha", path: "sub" }, { engine: "builtin" });
		expect(definition.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme)).toBe(
			[
				"3 matches (builtin)",
				"deep/-dash.ts:1: -flag alpha",
				"deep/top-only.txt:1: alpha not ignored: the rule is anchored",
				"keep.log:1: alpha kept by !keep.log",
			].join("\n"),
		);
		expect(definition.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
	});
});

describe("grep abort during a search", () => {
	it("stops the built-in engine with Operation aborted", async () => {
		const { localGrepOperations } = await import("../src/grep/grep.js");
		const slowOpen = async (path: string) => {
			await new Promise((resolve) => setTimeout(resolve, 5));
			return localGrepOperations.open(path);
		};
		const controller = new AbortController();
		const pending = grep(
			root,
			{ pattern: "alpha" },
			{ engine: "builtin", operations: { ...localGrepOperations, open: slowOpen } },
			controller.signal,
		);
		setTimeout(() => controller.abort(), 15);
		await expect(pending).rejects.toThrow("Operation aborted");
	});

	it("kills rg when the call is aborted", async () => {
		const { root: bin, remove: removeBin } = await makeTempFolder("gantry-fake-rg-");
		const pidFile = join(bin, "pid");
		await writeTree(bin, { rg: `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 30\n` });
		await chmod(join(bin, "rg"), 0o755);
		const path = process.env.PATH;
		process.env.PATH = `${bin}${delimiter}${path}`;
		try {
			const controller = new AbortController();
			const pending = grep(root, { pattern: "alpha" }, { engine: "ripgrep" }, controller.signal);
			let pid = "";
			for (let attempt = 0; attempt < 200 && pid === ""; attempt++) {
				await new Promise((resolve) => setTimeout(resolve, 10));
				pid = await readFile(pidFile, "utf8").then(
					(text) => text.trim(),
					() => "",
				);
			}
			expect(pid).not.toBe("");
			controller.abort();
			await expect(pending).rejects.toThrow("Operation aborted");
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(() => process.kill(Number(pid), 0)).toThrow();
		} finally {
			process.env.PATH = path;
			await removeBin();
		}
	});
});
