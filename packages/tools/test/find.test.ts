import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { plainTheme } from "@gantry/extensions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFindToolDefinition, localFindOperations } from "../src/find/find.js";
import type { FindToolInput, FindToolOptions } from "../src/find/types.js";
import { makeTempFolder, writeSearchFixture, writeTree } from "./search/fixture.js";

type Result = Awaited<ReturnType<ReturnType<typeof createFindToolDefinition>["execute"]>>;

function textOf(result: Result): string {
	const [block] = result.content;
	if (block === undefined) throw new Error("The result has no content");
	return block.type === "text" ? block.text : "";
}

function find(cwd: string, params: FindToolInput, options: FindToolOptions = {}, signal?: AbortSignal) {
	return createFindToolDefinition(cwd, options).execute("call", params, signal, undefined, undefined as never);
}

let root: string;
let remove: () => Promise<void>;
beforeAll(async () => {
	({ root, remove } = await makeTempFolder());
	await writeSearchFixture(root);
	await writeTree(root, { "B.ts": "", "sub/Z.ts": "", "sub/a-b.ts": "", "sub/a/b.ts": "", "node_modules/x/y.ts": "" });
	await writeTree(root, { "links/plain.txt": "" });
	await symlink(join(root, "crlf.txt"), join(root, "links/to-crlf.txt"));
});
afterAll(() => remove());

const files = async (params: FindToolInput) =>
	(await find(root, params)).structuredContent as { files: string[]; truncated: boolean };

describe("find", () => {
	it("lists matching files sorted, relative to the searched folder, with / separators", async () => {
		const result = await find(root, { pattern: "*.ts" });
		expect(textOf(result)).toBe(
			[
				".hidden/secret.ts",
				"B.ts",
				"a.ts",
				"link-to-a.ts",
				"sub/Z.ts",
				"sub/a-b.ts",
				"sub/a/b.ts",
				"sub/deep/-dash.ts",
			].join("\n"),
		);
		expect(result.structuredContent).toMatchObject({ truncated: false });
		expect(result.details).toEqual({ fileCount: 8 });
	});

	it("respects .gitignore files (nested ones, negations, anchored rules) and skips .git and node_modules", async () => {
		const all = (await files({ pattern: "**/*" })).files;
		expect(all).toContain("sub/keep.log");
		expect(all).toContain("sub/deep/top-only.txt");
		expect(all).toContain(".gitignore");
		expect(all).toContain(".env");
		for (const hidden of [
			"build/out.js",
			"app.log",
			"top-only.txt",
			"sub/other.log",
			"sub/generated/gen.ts",
			".git/config",
			"node_modules/pkg/index.js",
			"node_modules/x/y.ts",
		])
			expect(all).not.toContain(hidden);
	});

	it("matches a pattern with / against whole paths, and expands alternatives", async () => {
		expect((await files({ pattern: "sub/*.ts" })).files).toEqual(["sub/Z.ts", "sub/a-b.ts"]);
		expect((await files({ pattern: "sub/**/*.ts" })).files).toEqual([
			"sub/Z.ts",
			"sub/a-b.ts",
			"sub/a/b.ts",
			"sub/deep/-dash.ts",
		]);
		expect((await files({ pattern: "{b,c}.{md,js}" })).files).toEqual(["b.md", "c.js"]);
		expect((await files({ pattern: "sub/keep.log" })).files).toEqual(["sub/keep.log"]);
		expect((await files({ pattern: "sub/other.log" })).files).toEqual([]);
	});

	it("returns files only: folders and links to folders are not listed or followed", async () => {
		expect((await files({ pattern: "**/deep" })).files).toEqual([]);
		const all = (await files({ pattern: "**/*" })).files;
		expect(all).toContain("link-to-a.ts");
		expect(all.some((path) => path.startsWith("link-to-sub"))).toBe(false);
	});

	it("treats links alike whether or not the pattern has wildcards", async () => {
		expect((await files({ pattern: "links/*" })).files).toEqual(["links/plain.txt", "links/to-crlf.txt"]);
		expect((await files({ pattern: "links/to-crlf.txt" })).files).toEqual(["links/to-crlf.txt"]);
		// A pattern that starts inside a linked folder does not enter it either.
		expect((await files({ pattern: "link-to-sub/*.ts" })).files).toEqual([]);
		expect((await files({ pattern: "link-to-sub/Z.ts" })).files).toEqual([]);
	});

	it("searches from path, also inside a folder .gitignore leaves out", async () => {
		expect(textOf(await find(root, { pattern: "*", path: "sub" }))).toBe(
			[".gitignore", "Z.ts", "a-b.ts", "a/b.ts", "deep/-dash.ts", "deep/top-only.txt", "keep.log"].join("\n"),
		);
		expect(textOf(await find(root, { pattern: "*", path: "build" }))).toBe("out.js");
	});

	it("adds a notice when the limit cut the results", async () => {
		const result = await find(root, { pattern: "*.ts", limit: 3 });
		expect(textOf(result)).toBe(
			[
				".hidden/secret.ts",
				"B.ts",
				"a.ts",
				"",
				"[3 results limit reached. Use limit=6 for more, or refine the pattern]",
			].join("\n"),
		);
		expect(result.structuredContent).toEqual({ files: [".hidden/secret.ts", "B.ts", "a.ts"], truncated: true });
		expect(result.details).toEqual({ fileCount: 3, resultLimitReached: 3 });
	});

	it('says "No files found matching pattern" without failing', async () => {
		const result = await find(root, { pattern: "*.nothing" });
		expect(result.isError).toBeUndefined();
		expect(textOf(result)).toBe("No files found matching pattern");
		expect(result.structuredContent).toEqual({ files: [], truncated: false });
	});

	it("names a bracket that is never closed when nothing matched, and still matches it as a plain character", async () => {
		for (const [pattern, bracket] of [
			["src/[", "["],
			["*.{ts,js", "{"],
			["@(a|b", "("],
		] as const) {
			const result = await find(root, { pattern });
			expect(textOf(result)).toContain(`No files found matching pattern (its "${bracket}" is never closed`);
			expect(result.structuredContent).toEqual({ files: [], truncated: false });
		}
		const literal = await makeTempFolder();
		try {
			await writeTree(literal.root, { "x[1.txt": "" });
			const result = await find(literal.root, { pattern: "x[1.txt" });
			expect(textOf(result)).toBe("x[1.txt");
		} finally {
			await literal.remove();
		}
		expect(textOf(await find(root, { pattern: "[ab].nothing" }))).toBe("No files found matching pattern");
	});

	it("fails clearly for a missing path, a file, and a pattern that leaves the folder", async () => {
		await expect(find(root, { pattern: "*", path: "nope" })).rejects.toThrow(`Path not found: ${join(root, "nope")}`);
		await expect(find(root, { pattern: "*", path: "a.ts" })).rejects.toThrow(`Not a directory: ${join(root, "a.ts")}`);
		await expect(find(root, { pattern: "../*" })).rejects.toThrow("leaves the searched folder");
		await expect(find(root, { pattern: "/etc/*" })).rejects.toThrow("leaves the searched folder");
		await expect(find(root, { pattern: " " })).rejects.toThrow("pattern is required");
		await expect(find(root, { pattern: "*", limit: 0 })).rejects.toThrow("limit must be a whole number");
	});

	it("turns a glob over 10,000 characters away with the limit and what to do; one at the limit works", async () => {
		/** `{xx…x.ts,a.ts}`, exactly `length` characters. */
		const alternation = (length: number) => `{${"x".repeat(length - 10)}.ts,a.ts}`;
		const huge = alternation(200_007);
		expect(huge).toHaveLength(200_007);
		await expect(find(root, { pattern: huge })).rejects.toThrow(
			"pattern is too long: 200007 characters, while find takes globs of at most 10000. Give a shorter glob",
		);
		const atLimit = alternation(10_000);
		expect(atLimit).toHaveLength(10_000);
		expect((await files({ pattern: atLimit })).files).toEqual(["a.ts"]);
	});

	it("bounds the output to 50 KB with a notice", async () => {
		const { root: wide, remove: removeWide } = await makeTempFolder();
		try {
			const many: Record<string, string> = {};
			for (let index = 0; index < 600; index++)
				many[`${"d".repeat(90)}/file-${String(index).padStart(4, "0")}.txt`] = "";
			await writeTree(wide, many);
			const result = await find(wide, { pattern: "*.txt" });
			expect(Buffer.byteLength(textOf(result))).toBeLessThan(51 * 1024);
			expect(textOf(result)).toMatch(
				/\[Output cut at 50\.0 KB: \d+ of 600 paths shown\. Use a narrower pattern or path\]$/,
			);
			const structured = result.structuredContent as { files: string[]; truncated: boolean };
			expect(structured.truncated).toBe(true);
			expect(structured.files.length).toBe(result.details?.fileCount);
		} finally {
			await removeWide();
		}
	});

	it("fails with Operation aborted when the signal fires, before or during the walk", async () => {
		const aborted = new AbortController();
		aborted.abort();
		await expect(find(root, { pattern: "*" }, {}, aborted.signal)).rejects.toThrow("Operation aborted");
		const controller = new AbortController();
		const slow = {
			...localFindOperations,
			glob: async (pattern: string, cwd: string, signal: AbortSignal | undefined) => {
				await new Promise((resolve) => setTimeout(resolve, 30));
				return localFindOperations.glob(pattern, cwd, signal);
			},
		};
		const pending = find(root, { pattern: "*" }, { operations: slow }, controller.signal);
		setTimeout(() => controller.abort(), 5);
		await expect(pending).rejects.toThrow("Operation aborted");
	});

	it("stops the local walk itself when the signal fires", async () => {
		const { root: deep, remove: removeDeep } = await makeTempFolder();
		try {
			const many: Record<string, string> = {};
			for (let index = 0; index < 1500; index++) many[`d${index % 50}/e${index}/f.txt`] = "";
			await writeTree(deep, many);
			const controller = new AbortController();
			const pending = localFindOperations.glob("**/*.txt", deep, controller.signal);
			// The signal was live when the call started, so this is the walk's own check (once per folder)
			// that stops it, not the check at the start; a timer would race the walk on a fast machine.
			controller.abort();
			const outcome = await pending.then(
				(found) => `finished with ${found.length} files`,
				(error: Error) => error.message,
			);
			expect(outcome).toBe("Operation aborted");
		} finally {
			await removeDeep();
		}
	});

	it("treats null optional fields like missing ones, and renders", async () => {
		const definition = createFindToolDefinition(root);
		const result = await definition.execute(
			"call",
			{ pattern: "*.md", path: null, limit: null } as unknown as FindToolInput,
			undefined,
			undefined,
			undefined as never,
		);
		expect(textOf(result)).toBe("b.md");
		expect(definition.renderCall?.({ pattern: "*.md", path: "src" }, plainTheme)).toBe("find *.md in src");
		expect(definition.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme)).toBe("1 file\nb.md");
		expect(definition.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
	});
});
