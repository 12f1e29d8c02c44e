import { isUtf8 } from "node:buffer";
import { countLeading } from "./sorted-prefix.js";

const BOM = "\uFEFF";
/** Size of the UTF-8 byte order mark. */
export const BOM_BYTES = 3;
/** How far to look for a NUL byte, the usual sign of a binary file (git looks as far). */
const BINARY_SNIFF_BYTES = 8000;
const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;

/**
 * A text file as the edit tool sees it. Edits are matched against `lf`, the text with every CRLF turned
 * into LF (in a file whose only line ending is a lone CR, as old Mac files have, every CR); `toOriginalOffset`
 * maps a position in `lf` back to `original`, so the bytes between edits are written back exactly as they
 * were (mixed line endings included).
 */
export interface TextFile {
	/** The file's bytes as read. */
	bytes: Buffer;
	/** The file started with a UTF-8 byte order mark (kept on write, never part of `original`). */
	bom: boolean;
	/** The decoded text after the BOM. */
	original: string;
	/**
	 * `original` with CRLF turned into LF (the same string when the file has no CR); in a file with CRs and
	 * no LF at all, every CR turned into LF (the same length, so positions need no mapping).
	 */
	lf: string;
	/** The line ending new lines get: the file's first line ending (LF when it has none). */
	lineEnding: "\n" | "\r\n" | "\r";
	/**
	 * Positions in `lf` of the LFs whose CR was removed, ascending; empty when `lf === original`.
	 */
	removedCarriageReturns: number[];
}

/** Why a buffer cannot be edited as text. */
export type TextFileProblem = "binary" | "not-utf8";

/** The bytes a workspace read as a Buffer, without copying them. */
export function toBuffer(data: Uint8Array): Buffer {
	return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Decodes a file for editing, or says why it is not an editable text file. */
export function decodeTextFile(buffer: Buffer): TextFile | TextFileProblem {
	if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return "binary";
	if (!isUtf8(buffer)) return "not-utf8";
	let original = buffer.toString("utf8");
	const bom = original.startsWith(BOM);
	if (bom) original = original.slice(1);
	// A byte search is far cheaper than a string scan, and most files have no CR at all.
	if (buffer.indexOf(CARRIAGE_RETURN) === -1)
		return { bytes: buffer, bom, original, lf: original, lineEnding: "\n", removedCarriageReturns: [] };
	if (buffer.indexOf(LINE_FEED) === -1)
		return {
			bytes: buffer,
			bom,
			original,
			lf: original.replaceAll("\r", "\n"),
			lineEnding: "\r",
			removedCarriageReturns: [],
		};

	const removedCarriageReturns: number[] = [];
	const pieces: string[] = [];
	let from = 0;
	let at = original.indexOf("\r\n");
	while (at !== -1) {
		pieces.push(original.slice(from, at));
		// The LF lands at the current length of the LF text.
		removedCarriageReturns.push(at - removedCarriageReturns.length);
		from = at + 1;
		at = original.indexOf("\r\n", from);
	}
	pieces.push(original.slice(from));
	const firstLineFeed = original.indexOf("\n");
	const lineEnding = firstLineFeed > 0 && original[firstLineFeed - 1] === "\r" ? "\r\n" : "\n";
	return { bytes: buffer, bom, original, lf: pieces.join(""), lineEnding, removedCarriageReturns };
}

/** Maps a position in `file.lf` to the same position in `file.original`. */
export function toOriginalOffset(file: TextFile, offset: number): number {
	const removed = file.removedCarriageReturns;
	// Count the removed CRs that sat before `offset` (the list is sorted).
	return offset + countLeading(removed, (at) => at < offset);
}

/** Turns the LF line breaks of inserted text into the file's line ending. */
export function withFileLineEnding(file: TextFile, text: string): string {
	return file.lineEnding === "\n" ? text : text.replaceAll("\n", file.lineEnding);
}
