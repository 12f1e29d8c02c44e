import { describe, expect, it } from "vitest";
import { decodeTextFile, type TextFile, toOriginalOffset, withFileLineEnding } from "../../src/edit/text-file.js";

function decode(text: string | Buffer): TextFile {
	const file = decodeTextFile(Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8"));
	if (typeof file === "string") throw new Error(`expected text, got ${file}`);
	return file;
}

describe("decodeTextFile", () => {
	it("uses the text itself for an LF file", () => {
		const file = decode("a\nb\n");
		expect(file).toEqual({
			bytes: Buffer.from("a\nb\n"),
			bom: false,
			original: "a\nb\n",
			lf: "a\nb\n",
			lineEnding: "\n",
			removedCarriageReturns: [],
		});
	});

	it("turns CRLF into LF, remembering where each CR was, and keeps lone CRs", () => {
		const file = decode("a\r\nb\rc\r\n\r\nd");
		expect(file.lf).toBe("a\nb\rc\n\nd");
		expect(file.lineEnding).toBe("\r\n");
		expect(file.removedCarriageReturns).toEqual([1, 5, 6]);
		for (const [lfOffset, originalOffset] of [
			[0, 0],
			[1, 1],
			[2, 3],
			[6, 8],
			[7, 10],
			[8, 11],
		] as const)
			expect(toOriginalOffset(file, lfOffset)).toBe(originalOffset);
	});

	it("treats every CR as the line ending in a file without any LF", () => {
		const file = decode("a\rb\r\rc");
		expect(file.lf).toBe("a\nb\n\nc");
		expect(file.lineEnding).toBe("\r");
		expect(toOriginalOffset(file, 4)).toBe(4);
		expect(withFileLineEnding(file, "x\ny\n")).toBe("x\ry\r");
	});

	it("takes the line ending of the first line for new lines", () => {
		expect(decode("a\nb\r\n").lineEnding).toBe("\n");
		expect(decode("a\r\nb\n").lineEnding).toBe("\r\n");
		expect(withFileLineEnding(decode("a\r\n"), "x\ny\n")).toBe("x\r\ny\r\n");
		expect(withFileLineEnding(decode("a\n"), "x\ny\n")).toBe("x\ny\n");
	});

	it("strips a BOM from the text and notes it", () => {
		const file = decode(Buffer.from("\uFEFFhi", "utf8"));
		expect(file.bom).toBe(true);
		expect(file.original).toBe("hi");
	});

	it("refuses binary content and text that is not UTF-8", () => {
		expect(decodeTextFile(Buffer.from([0x61, 0x00, 0x62]))).toBe("binary");
		expect(decodeTextFile(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe("not-utf8");
		expect(decodeTextFile(Buffer.from("ünïcödé ✓ 😀", "utf8"))).not.toBeTypeOf("string");
	});
});
