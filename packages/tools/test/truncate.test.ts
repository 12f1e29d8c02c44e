import { describe, expect, it } from "vitest";
import {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	tailBytes,
	truncateHead,
	truncateLine,
	truncateTail,
} from "../src/truncate.js";

const lines = (count: number, make = (index: number) => `line ${index + 1}`) =>
	Array.from({ length: count }, (_, index) => make(index)).join("\n");

describe("truncateHead", () => {
	it("keeps short text unchanged", () => {
		const result = truncateHead("a\nb\n");
		expect(result).toMatchObject({ content: "a\nb\n", truncated: false, truncatedBy: null, totalLines: 2 });
	});

	it("cuts by lines at the default limit", () => {
		const result = truncateHead(lines(3000));
		expect(result.truncatedBy).toBe("lines");
		expect(result.outputLines).toBe(DEFAULT_MAX_LINES);
		expect(result.content.split("\n").at(-1)).toBe("line 2000");
		expect(result.totalLines).toBe(3000);
	});

	it("cuts by bytes one byte over the limit, keeping whole lines", () => {
		const line = "x".repeat(99);
		// 512 lines of 99 chars + 511 newlines = 51199 bytes; two more characters make it one byte over 51200.
		const text = `${lines(512, () => line)}yy`;
		expect(Buffer.byteLength(text)).toBe(DEFAULT_MAX_BYTES + 1);
		const result = truncateHead(text);
		expect(result.truncatedBy).toBe("bytes");
		expect(result.outputLines).toBe(511);
		expect(result.outputBytes).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
		expect(result.content.endsWith(line)).toBe(true);
	});

	it("never splits a multibyte character", () => {
		const text = lines(30_000, () => "€€€");
		const result = truncateHead(text, { maxLines: 100_000 });
		expect(result.outputBytes).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
		expect(result.content).not.toContain("\uFFFD");
		expect(result.content.split("\n").every((line) => line === "€€€")).toBe(true);
	});

	it("reports a first line longer than the limit instead of cutting it", () => {
		const result = truncateHead(`${"a".repeat(100)}\nb`, { maxBytes: 50 });
		expect(result.firstLineExceedsLimit).toBe(true);
		expect(result.content).toBe("");
	});
});

describe("truncateTail", () => {
	it("keeps the last lines", () => {
		const result = truncateTail(lines(3000));
		expect(result.truncatedBy).toBe("lines");
		expect(result.content.split("\n")[0]).toBe("line 1001");
		expect(result.content.split("\n").at(-1)).toBe("line 3000");
	});

	it("keeps the tail of a single line longer than the limit, on a character boundary, and marks it", () => {
		const result = truncateTail(`head\n${"é".repeat(100)}`, { maxBytes: 51 });
		expect(result.lastLinePartial).toBe(true);
		expect(result.content).toBe("é".repeat(25));
	});
});

describe("helpers", () => {
	it("tailBytes skips continuation bytes", () => {
		expect(tailBytes("a€", 2)).toBe("");
		expect(tailBytes("a€", 3)).toBe("€");
		expect(tailBytes("abc", 10)).toBe("abc");
	});

	it("truncateLine marks a cut line", () => {
		expect(truncateLine("x".repeat(600))).toEqual({ text: `${"x".repeat(500)}... [truncated]`, wasTruncated: true });
		expect(truncateLine("short")).toEqual({ text: "short", wasTruncated: false });
	});

	it("formatSize", () => {
		expect(formatSize(10)).toBe("10 B");
		expect(formatSize(1536)).toBe("1.5 KB");
		expect(formatSize(5 * 1024 * 1024)).toBe("5.0 MB");
	});
});
