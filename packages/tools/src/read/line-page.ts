// Finds one page of lines in a file by reading it in chunks: lines before the page are only counted
// (newlines found in the raw bytes, nothing decoded or kept), the page's bytes are copied out, and the
// scan stops as soon as the page is full and it is known whether more lines follow.
import { throwIfAborted } from "../abort.js";
import { NewlineCounter } from "./count-newlines.js";

/** Reads bytes at a file position; resolves to how many were read (0 at the end of the file). */
export interface ChunkReader {
	read(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
}

export interface LinePageRequest {
	/** First line to return, 1-indexed. */
	offset: number;
	/** Most lines to return. */
	maxLines: number;
	/** Most bytes to return (the lines joined by their newlines, without the last newline). */
	maxBytes: number;
	/** Count every line of the file (read it to the end) when it is at most this big. */
	countLinesUpTo: number;
	/** Size of the file as last seen; sizes the buffer and decides whether counting is cheap. */
	fileSize: number;
	chunkSize: number;
	signal?: AbortSignal;
}

export interface LinePage {
	/** The page exactly as in the file, without the newline after its last line. */
	bytes: Buffer;
	/** Number of lines in the page (0 when the offset is past the end or the first line is too long). */
	lineCount: number;
	/** Why the page ended: the file ended, the line limit, or the next line would pass the byte limit. */
	stop: "end" | "lines" | "bytes";
	/** True when lines follow the page. */
	moreLines: boolean;
	/** Lines in the whole file, when known (always when the page reached the end). */
	totalLines?: number;
}

const NEWLINE = 0x0a;

/** Reads the page of lines `request` describes. Throws "Operation aborted" when `signal` fires. */
export async function readLinePage(reader: ChunkReader, request: LinePageRequest): Promise<LinePage> {
	const { offset, maxLines, maxBytes, signal } = request;
	// One buffer is reused for every chunk; the page's bytes are copied out of it.
	const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(request.chunkSize, request.fileSize + 1)));
	const counter = new NewlineCounter();
	const pieces: Buffer[] = [];
	let position = 0; // file position just past the last chunk read
	let line = 1; // number of the line the scan is in
	let lineStart = 0; // where that line starts (only exact from the page on)
	let pageStart = offset === 1 ? 0 : -1;
	let pageEnd = 0;
	let lineCount = 0;
	let stop: LinePage["stop"] | undefined;
	let chunk = buffer.subarray(0, 0);
	let index = 0;
	let endsWithNewline = true; // the last byte read so far is a newline (or nothing was read)

	const readChunk = async (): Promise<boolean> => {
		throwIfAborted(signal);
		const bytesRead = await reader.read(buffer, 0, buffer.length, position);
		if (bytesRead === 0) return false;
		position += bytesRead;
		chunk = buffer.subarray(0, bytesRead);
		index = 0;
		endsWithNewline = chunk[bytesRead - 1] === NEWLINE;
		return true;
	};

	// Skip to the page and collect it.
	while (stop === undefined && (await readChunk())) {
		const chunkStart = position - chunk.length;
		if (pageStart < 0) {
			// Whole chunks before the page are only counted.
			const newlines = counter.count(chunk, 0, chunk.length);
			if (line + newlines < offset) {
				line += newlines;
				continue;
			}
			while (pageStart < 0) {
				index = chunk.indexOf(NEWLINE, index) + 1;
				line++;
				if (line === offset) pageStart = lineStart = chunkStart + index;
			}
		}
		const collectFrom = index;
		while (index < chunk.length) {
			const newline = chunk.indexOf(NEWLINE, index);
			const lineEnd = newline < 0 ? position : chunkStart + newline;
			if (lineEnd - pageStart > maxBytes) {
				stop = "bytes";
				break;
			}
			if (newline < 0) {
				index = chunk.length;
				break;
			}
			index = newline + 1;
			lineCount++;
			pageEnd = lineEnd;
			line++;
			lineStart = lineEnd + 1;
			if (lineCount === maxLines) {
				stop = "lines";
				break;
			}
		}
		if (index > collectFrom) pieces.push(Buffer.from(chunk.subarray(collectFrom, index)));
	}

	if (stop === undefined) {
		// End of file. A last line without a newline fits, or the byte check would have stopped the scan.
		if (pageStart >= 0 && lineStart < position) {
			lineCount++;
			pageEnd = position;
		}
		const bytes = lineCount === 0 ? Buffer.alloc(0) : Buffer.concat(pieces).subarray(0, pageEnd - pageStart);
		const totalLines = line - 1 + (endsWithNewline ? 0 : 1);
		return { bytes, lineCount, stop: "end", moreLines: false, totalLines };
	}
	const bytes = lineCount === 0 ? Buffer.alloc(0) : Buffer.concat(pieces).subarray(0, pageEnd - pageStart);

	// The page is full. Count the rest when that is cheap; otherwise only learn whether a line follows.
	if (request.fileSize > request.countLinesUpTo) {
		let moreLines = stop === "bytes" || index < chunk.length;
		if (!moreLines) moreLines = (await reader.read(buffer, 0, 1, position)) > 0;
		if (!moreLines) return { bytes, lineCount, stop: "end", moreLines, totalLines: offset - 1 + lineCount };
		return { bytes, lineCount, stop, moreLines };
	}
	line += counter.count(chunk, index, chunk.length);
	while (await readChunk()) line += counter.count(chunk, 0, chunk.length);
	const totalLines = line - 1 + (endsWithNewline ? 0 : 1);
	const moreLines = totalLines > offset - 1 + lineCount;
	return { bytes, lineCount, stop: moreLines ? stop : "end", moreLines, totalLines };
}
