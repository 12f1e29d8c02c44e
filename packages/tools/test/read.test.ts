import { mkdir, mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plainTheme } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReadToolDefinition, localReadOperations } from "../src/read/read.js";
import { type ReadOperations, type ReadToolInput, type ReadToolOptions, readOutputSchema } from "../src/read/types.js";
import { DEFAULT_MAX_BYTES } from "../src/truncate.js";
import { readIn, text } from "./read/read-helpers.js";

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-read-"));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

const read = (input: Partial<ReadToolInput> & { path: string }, options: ReadToolOptions = {}, signal?: AbortSignal) =>
	readIn(folder, input, options, signal);

const numbered = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, index) => `line ${from + index}`).join("\n");

describe("read: paging a 3000-line file", () => {
	beforeEach(async () => {
		await writeFile(join(folder, "log.txt"), `${numbered(1, 3000)}\n`);
	});

	it("returns the first 2000 lines as they are, then where to continue", async () => {
		const result = await read({ path: "log.txt" });
		expect(text(result)).toBe(`${numbered(1, 2000)}\n\n[Showing lines 1-2000 of 3000. Use offset=2001 to continue.]`);
		expect(result.structuredContent).toMatchObject({
			kind: "text",
			startLine: 1,
			endLine: 2000,
			totalLines: 3000,
			truncated: true,
			nextOffset: 2001,
			content: numbered(1, 2000),
		});
		expect(result.details?.truncation).toMatchObject({ truncatedBy: "lines", nextOffset: 2001, remainingLines: 1000 });
	});

	it("reads the last page without a notice", async () => {
		const result = await read({ path: "log.txt", offset: 2001 });
		expect(text(result)).toBe(numbered(2001, 3000));
		expect(result.structuredContent).toMatchObject({
			startLine: 2001,
			endLine: 3000,
			totalLines: 3000,
			truncated: false,
		});
	});

	it("stops at the limit and counts the lines left", async () => {
		const result = await read({ path: "log.txt", offset: 100, limit: 10 });
		expect(text(result)).toBe(`${numbered(100, 109)}\n\n[2891 more lines in file. Use offset=110 to continue.]`);
	});

	it("gives no notice when the limit ends exactly at the last line", async () => {
		const result = await read({ path: "log.txt", offset: 2991, limit: 10 });
		expect(text(result)).toBe(numbered(2991, 3000));
		expect(result.structuredContent).toMatchObject({ truncated: false });
	});

	it("following the notices walks the whole file exactly once", async () => {
		const pages: string[] = [];
		let offset: number | undefined = 1;
		while (offset !== undefined) {
			const result = await read({ path: "log.txt", offset, limit: 700 });
			pages.push((result.structuredContent as { content: string }).content);
			offset = (result.structuredContent as { nextOffset?: number }).nextOffset;
		}
		expect(pages).toHaveLength(5);
		expect(pages.join("\n")).toBe(numbered(1, 3000));
	});

	it("an offset past the end is an error that gives the line count", async () => {
		await expect(read({ path: "log.txt", offset: 5000 })).rejects.toThrow(
			"Offset 5000 is beyond end of file (3000 lines total)",
		);
		await expect(read({ path: "log.txt", offset: 3001 })).rejects.toThrow("(3000 lines total)");
	});

	it("treats null optional arguments (strict mode) like missing ones", async () => {
		const result = await read({ path: "log.txt", offset: null, limit: null } as unknown as ReadToolInput);
		expect(result.structuredContent).toMatchObject({ startLine: 1, endLine: 2000 });
	});

	it("rejects an offset or limit that is not a whole number of 1 or more", async () => {
		await expect(read({ path: "log.txt", offset: 0 })).rejects.toThrow(/offset must be a whole number/);
		await expect(read({ path: "log.txt", limit: 2.5 })).rejects.toThrow(/limit must be a whole number/);
	});
});

describe("read: byte limit", () => {
	it("keeps lines that fill the limit exactly and drops the one a byte over", async () => {
		// 100 lines of 511 characters + newline: the page without its last newline is 51,199 bytes.
		const line = "x".repeat(511);
		const exact = [...Array(99).fill(line), "x".repeat(512)];
		await writeFile(join(folder, "exact.txt"), `${exact.join("\n")}\nnext\n`);
		const fits = await read({ path: "exact.txt" });
		expect((fits.structuredContent as { content: string }).content).toBe(exact.join("\n"));
		expect(Buffer.byteLength((fits.structuredContent as { content: string }).content)).toBe(DEFAULT_MAX_BYTES);
		expect(text(fits)).toMatch(/\[Showing lines 1-100 of 101 \(50\.0 KB limit\)\. Use offset=101 to continue\.\]$/);

		const over = [...Array(99).fill(line), "x".repeat(513)];
		await writeFile(join(folder, "over.txt"), `${over.join("\n")}\n`);
		const cut = await read({ path: "over.txt" });
		expect((cut.structuredContent as { content: string }).content).toBe(over.slice(0, 99).join("\n"));
		expect(text(cut)).toMatch(/\[Showing lines 1-99 of 100 \(50\.0 KB limit\)\. Use offset=100 to continue\.\]$/);
	});

	it("never splits a multi-byte character at the boundary", async () => {
		// "€" is 3 bytes: 30,000 + 1 + 21,000 bytes fit; the third line would pass 51,200.
		const lines = ["€".repeat(10_000), "€".repeat(7_000), "€".repeat(100), "end"];
		await writeFile(join(folder, "euro.txt"), lines.join("\n"));
		const result = await read({ path: "euro.txt" });
		const content = (result.structuredContent as { content: string }).content;
		expect(content).toBe(lines.slice(0, 2).join("\n"));
		expect(content).not.toContain("\uFFFD");
		expect(result.structuredContent).toMatchObject({ endLine: 2, totalLines: 4, nextOffset: 3 });
	});

	it("a first line over the limit is an error that shows how to read it with bash", async () => {
		await writeFile(join(folder, "wide line.json"), `short\n${"y".repeat(60_000)}\nafter\n`);
		await expect(read({ path: "wide line.json", offset: 2 })).rejects.toThrow(
			`Line 2 is longer than the 50.0 KB limit of one read, so it cannot be shown. Read part of it with bash: sed -n '2p' '${join(folder, "wide line.json")}' | head -c 51200`,
		);
		const result = await read({ path: "wide line.json", offset: 3 });
		expect(text(result)).toBe("after");
	});

	it("stops at a long line after some lines and points at it", async () => {
		await writeFile(join(folder, "mixed.txt"), `a\nb\n${"z".repeat(80_000)}\n`);
		const result = await read({ path: "mixed.txt" });
		expect(text(result)).toBe("a\nb\n\n[Showing lines 1-2 of 3 (50.0 KB limit). Use offset=3 to continue.]");
	});
});

describe("read: text details", () => {
	it("returns CRLF lines exactly as they are", async () => {
		await writeFile(join(folder, "crlf.txt"), "one\r\ntwo\r\nthree\r\n");
		const result = await read({ path: "crlf.txt", limit: 2 });
		expect(text(result)).toBe("one\r\ntwo\r\n\n[1 more line in file. Use offset=3 to continue.]");
	});

	it("counts a last line without a newline", async () => {
		await writeFile(join(folder, "no-newline.txt"), "a\nb");
		expect(text(await read({ path: "no-newline.txt" }))).toBe("a\nb");
		expect(text(await read({ path: "no-newline.txt", offset: 2 }))).toBe("b");
		await expect(read({ path: "no-newline.txt", offset: 3 })).rejects.toThrow("(2 lines total)");
	});

	it("drops a UTF-8 byte order mark and keeps accented text", async () => {
		await writeFile(join(folder, "bom.txt"), "\uFEFFcafé\nnaïve\n");
		expect(text(await read({ path: "bom.txt" }))).toBe("café\nnaïve");
	});

	it("says when a file is empty", async () => {
		await writeFile(join(folder, "empty.txt"), "");
		const result = await read({ path: "empty.txt" });
		expect(text(result)).toBe(`[File is empty: ${join(folder, "empty.txt")}]`);
		expect(result.structuredContent).toMatchObject({ totalLines: 0, content: "" });
		await expect(read({ path: "empty.txt", offset: 2 })).rejects.toThrow("(0 lines total)");
	});

	it("resolves ~-free relative paths and strips a leading @", async () => {
		await mkdir(join(folder, "src"));
		await writeFile(join(folder, "src", "a.ts"), "export {};\n");
		const result = await read({ path: "@src/a.ts" });
		expect(text(result)).toBe("export {};");
		expect(result.details?.path).toBe(join(folder, "src", "a.ts"));
	});

	it("does not count a big file's lines to the end, and says so", async () => {
		const line = `${"w".repeat(99)}\n`;
		await writeFile(join(folder, "big.log"), line.repeat(50_000)); // 5 MB
		const result = await read({ path: "big.log", offset: 10, limit: 5 });
		expect(text(result)).toMatch(
			/\n\n\[More lines in file \(the total is not counted for files over 4\.0 MB\)\. Use offset=15 to continue\.\]$/,
		);
		expect(result.structuredContent).not.toHaveProperty("totalLines");
		const last = await read({ path: "big.log", offset: 49_999 });
		expect(last.structuredContent).toMatchObject({ startLine: 49_999, endLine: 50_000, totalLines: 50_000 });
	});
});

describe("read: what is not a text file", () => {
	it("reports a missing path clearly", async () => {
		await expect(read({ path: "nope.txt" })).rejects.toThrow(`File not found: ${join(folder, "nope.txt")}`);
		await expect(read({ path: "nope/deeper.txt" })).rejects.toThrow("File not found:");
	});

	it("points at ls for a folder", async () => {
		await mkdir(join(folder, "sub"));
		await expect(read({ path: "sub" })).rejects.toThrow(/is a folder, not a file\. Use ls/);
	});

	it("fails on a binary file, giving its size instead of dumping it", async () => {
		const bytes = Buffer.alloc(12_600);
		for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 7) % 256;
		await writeFile(join(folder, "data.bin"), bytes);
		await expect(read({ path: "data.bin" })).rejects.toThrow(/^Binary file \(12\.3 KB\) — not shown/);
	});

	it("fails on invalid UTF-8 without NUL bytes as binary too", async () => {
		const bytes = Buffer.alloc(4000);
		for (let index = 0; index < bytes.length; index++) bytes[index] = 0x80 + (index % 0x7f);
		await writeFile(join(folder, "latin.dat"), bytes);
		await expect(read({ path: "latin.dat" })).rejects.toThrow(/^Binary file/);
	});
});

describe("read: huge files, operations and abort", () => {
	it("reads a page near the end of a 200 MB file without loading it", async () => {
		const path = join(folder, "huge.log");
		const handle = await open(path, "w");
		await handle.write(`${numbered(1, 1000)}\n`);
		await handle.truncate(200 * 1024 * 1024); // a sparse gap of NUL bytes: one long line
		await handle.write(`\n${numbered(1, 100)}\n`, 200 * 1024 * 1024);
		await handle.close();
		const before = process.memoryUsage();
		const result = await read({ path: "huge.log", offset: 1092, limit: 5 });
		const after = process.memoryUsage();
		expect(text(result)).toBe(
			`${numbered(91, 95)}\n\n[More lines in file (the total is not counted for files over 4.0 MB). Use offset=1097 to continue.]`,
		);
		expect(after.rss - before.rss).toBeLessThan(64 * 1024 * 1024);
		expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(8 * 1024 * 1024);
	});

	it("does all I/O through the operations it is given", async () => {
		const files = new Map([["/remote/a.txt", Buffer.from("remote\nfile\n")]]);
		const operations: ReadOperations = {
			async stat(path) {
				const file = files.get(path);
				return file ? { kind: "file", size: file.length } : undefined;
			},
			async open(path) {
				const file = files.get(path) ?? Buffer.alloc(0);
				return {
					read: async (buffer, offset, length, position) => file.copy(buffer, offset, position, position + length),
					close: async () => {},
				};
			},
		};
		const result = await read({ path: "/remote/a.txt", offset: 2 }, { operations });
		expect(text(result)).toBe("file");
		await expect(read({ path: "/remote/b.txt" }, { operations })).rejects.toThrow("File not found: /remote/b.txt");
	});

	it("throws before doing anything when the signal is already aborted", async () => {
		await writeFile(join(folder, "a.txt"), "a\n");
		await expect(read({ path: "a.txt" }, {}, AbortSignal.abort())).rejects.toThrow("Operation aborted");
	});

	it("stops scanning when aborted mid-read, and closes the file", async () => {
		await writeFile(join(folder, "long.txt"), `${numbered(1, 400_000)}\n`);
		const controller = new AbortController();
		let reads = 0;
		let closed = false;
		const operations: ReadOperations = {
			stat: localReadOperations.stat,
			async open(path) {
				const handle = await localReadOperations.open(path);
				return {
					async read(buffer, offset, length, position) {
						if (++reads === 3) controller.abort();
						return handle.read(buffer, offset, length, position);
					},
					async close() {
						closed = true;
						await handle.close();
					},
				};
			},
		};
		await expect(read({ path: "long.txt", offset: 399_000 }, { operations }, controller.signal)).rejects.toThrow(
			"Operation aborted",
		);
		expect(reads).toBeLessThan(6);
		expect(closed).toBe(true);
	});
});

describe("read: definition and rendering", () => {
	it("declares a read-only, idempotent tool with strict sampling and an output schema", () => {
		const tool = createReadToolDefinition(folder);
		expect(tool.name).toBe("read");
		expect(tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
		expect(tool.constrainedSampling).toEqual({ type: "json_schema", strict: "prefer" });
		expect(tool.outputSchema).toBe(readOutputSchema);
		expect(tool.promptSnippet).toBeTruthy();
	});

	it("renders the call and a short result", async () => {
		await writeFile(join(folder, "log.txt"), `${numbered(1, 30)}\n`);
		const tool = createReadToolDefinition(folder);
		expect(tool.renderCall?.({ path: "log.txt", offset: 5, limit: 10 }, plainTheme)).toBe("read log.txt:5-14");
		const result = await read({ path: "log.txt", limit: 20 });
		const collapsed = tool.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme) ?? "";
		expect(collapsed.split("\n")).toEqual([
			...numbered(1, 10).split("\n"),
			"… 10 more lines",
			"lines 1-20 of 30",
			"[10 more lines in file. Use offset=21 to continue.]",
		]);
		const expanded = tool.renderResult?.(result, { expanded: true, isPartial: false }, plainTheme) ?? "";
		expect(expanded).toContain("line 20\nlines 1-20 of 30");
	});
});
