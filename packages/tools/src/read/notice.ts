import { formatSize } from "../truncate.js";

/** What cut a page short. */
export type ReadTruncatedBy = "lines" | "bytes" | "limit";

export interface PageNoticeInput {
	truncatedBy: ReadTruncatedBy;
	startLine: number;
	endLine: number;
	/** Lines in the file, when counted. */
	totalLines?: number;
	maxBytes: number;
	/** Files bigger than this are not read to the end just to count their lines. */
	countLinesUpTo: number;
}

/** The notice after a page that did not reach the end of the file: where to continue. */
export function pageNotice(input: PageNoticeInput): string {
	const { startLine, endLine, totalLines } = input;
	const next = `Use offset=${endLine + 1} to continue.`;
	const notCounted = `the total is not counted for files over ${formatSize(input.countLinesUpTo)}`;
	const range = `lines ${startLine}-${endLine}`;
	if (input.truncatedBy === "limit") {
		if (totalLines === undefined) return `[More lines in file (${notCounted}). ${next}]`;
		const rest = totalLines - endLine;
		return `[${rest} more line${rest === 1 ? "" : "s"} in file. ${next}]`;
	}
	const limit = input.truncatedBy === "bytes" ? ` (${formatSize(input.maxBytes)} limit)` : "";
	if (totalLines === undefined) return `[Showing ${range}${limit}; more lines follow (${notCounted}). ${next}]`;
	return `[Showing ${range} of ${totalLines}${limit}. ${next}]`;
}

/** Quotes a path for a POSIX shell command line when it needs it. */
export function shellQuote(path: string): string {
	return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The error for a first line that alone passes the byte limit: how to read part of it with bash. */
export function longLineMessage(line: number, path: string, maxBytes: number): string {
	return (
		`Line ${line} is longer than the ${formatSize(maxBytes)} limit of one read, so it cannot be shown. ` +
		`Read part of it with bash: sed -n '${line}p' ${shellQuote(path)} | head -c ${maxBytes}`
	);
}
