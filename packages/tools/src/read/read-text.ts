import type { AgentToolResult } from "@gantry/agent";
import { withoutUndefined } from "@gantry/ai";
import { readLinePage } from "./line-page.js";
import { longLineMessage, pageNotice, type ReadTruncatedBy } from "./notice.js";
import type { ReadFileHandle, ReadToolDetails, ReadTruncation } from "./types.js";

/** Files up to this size are read to the end so that notices can give the line count. */
export const COUNT_LINES_UP_TO = 4 * 1024 * 1024;
/** Bytes per read while scanning for lines. */
export const READ_CHUNK_BYTES = 256 * 1024;

export interface TextReadRequest {
	path: string;
	handle: ReadFileHandle;
	size: number;
	offset: number;
	limit?: number;
	maxLines: number;
	maxBytes: number;
	signal?: AbortSignal;
}

/** Reads one page of a text file and words the result: the lines as they are, then a notice. */
export async function readTextFile(request: TextReadRequest): Promise<AgentToolResult<ReadToolDetails>> {
	const { path, offset, limit, maxBytes, size } = request;
	const pageLines = Math.min(limit ?? Number.POSITIVE_INFINITY, request.maxLines);
	const page = await readLinePage(
		request.handle,
		withoutUndefined({
			offset,
			maxLines: pageLines,
			maxBytes,
			countLinesUpTo: COUNT_LINES_UP_TO,
			fileSize: size,
			chunkSize: READ_CHUNK_BYTES,
			signal: request.signal,
		}),
	);

	if (page.lineCount === 0) {
		if (page.stop === "bytes") throw new Error(longLineMessage(offset, path, maxBytes));
		if (page.totalLines !== 0 || offset > 1)
			throw new Error(`Offset ${offset} is beyond end of file (${page.totalLines ?? 0} lines total)`);
		return {
			content: [{ type: "text", text: `[File is empty: ${path}]` }],
			structuredContent: { kind: "text", path, startLine: 1, endLine: 0, totalLines: 0, truncated: false, content: "" },
			details: { path, kind: "text", size, startLine: 1, endLine: 0, totalLines: 0 },
		};
	}

	let text = page.bytes.toString("utf8");
	if (offset === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	const endLine = offset + page.lineCount - 1;
	const { totalLines } = page;
	let truncation: ReadTruncation | undefined;
	let output = text;
	if (page.stop !== "end") {
		const truncatedBy: ReadTruncatedBy =
			page.stop === "bytes" ? "bytes" : limit !== undefined && limit <= request.maxLines ? "limit" : "lines";
		truncation = { truncatedBy, nextOffset: endLine + 1, maxLines: request.maxLines, maxBytes };
		if (totalLines !== undefined) truncation.remainingLines = totalLines - endLine;
		const notice = pageNotice(
			withoutUndefined({
				truncatedBy,
				startLine: offset,
				endLine,
				totalLines,
				maxBytes,
				countLinesUpTo: COUNT_LINES_UP_TO,
			}),
		);
		output = `${text}\n\n${notice}`;
	}
	return {
		content: [{ type: "text", text: output }],
		structuredContent: {
			kind: "text",
			path,
			startLine: offset,
			endLine,
			...withoutUndefined({ totalLines }),
			truncated: truncation !== undefined,
			...withoutUndefined({ nextOffset: truncation?.nextOffset }),
			content: text,
		},
		details: { path, kind: "text", size, startLine: offset, endLine, ...withoutUndefined({ totalLines, truncation }) },
	};
}
