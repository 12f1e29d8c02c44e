import { characterStart } from "./utf8-boundary.js";

/** The most lines a tool returns to the model. */
export const DEFAULT_MAX_LINES = 2000;
/** The most bytes (UTF-8) a tool returns to the model. */
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Grep match lines longer than this are cut. */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationOptions {
	/** Default `DEFAULT_MAX_LINES`. */
	maxLines?: number;
	/** Default `DEFAULT_MAX_BYTES`. */
	maxBytes?: number;
}

export interface TruncationResult {
	/** The kept text: whole lines, never a split UTF-8 character. */
	content: string;
	truncated: boolean;
	/** Which limit cut the text first. */
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	/** truncateTail only: the single kept line was longer than the byte limit and only its tail is kept. */
	lastLinePartial: boolean;
	/** truncateHead only: the first line alone is over the byte limit, so nothing is kept. */
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

function result(
	content: string,
	lines: string[],
	totalBytes: number,
	kept: number,
	truncatedBy: TruncationResult["truncatedBy"],
	maxLines: number,
	maxBytes: number,
	flags: { lastLinePartial?: boolean; firstLineExceedsLimit?: boolean } = {},
): TruncationResult {
	return {
		content,
		truncated: truncatedBy !== null,
		truncatedBy,
		totalLines: lines.length,
		totalBytes,
		outputLines: kept,
		outputBytes: Buffer.byteLength(content, "utf8"),
		lastLinePartial: flags.lastLinePartial ?? false,
		firstLineExceedsLimit: flags.firstLineExceedsLimit ?? false,
		maxLines,
		maxBytes,
	};
}

/** How many whole lines, taken from the head or the tail, fit in both limits, and which limit stopped them. */
function countFittingLines(
	lines: string[],
	from: "head" | "tail",
	maxLines: number,
	maxBytes: number,
): { kept: number; truncatedBy: TruncationResult["truncatedBy"] } {
	let bytes = 0;
	let kept = 0;
	while (kept < lines.length) {
		if (kept >= maxLines) return { kept, truncatedBy: "lines" };
		const line = lines[from === "head" ? kept : lines.length - 1 - kept];
		if (line === undefined) break;
		const lineBytes = Buffer.byteLength(line, "utf8") + (kept > 0 ? 1 : 0);
		if (bytes + lineBytes > maxBytes) return { kept, truncatedBy: "bytes" };
		bytes += lineBytes;
		kept++;
	}
	return { kept, truncatedBy: null };
}

/** Keeps the first lines of `text` within both limits (for file contents: the start matters). */
export function truncateHead(text: string, options: TruncationOptions = {}): TruncationResult {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = Buffer.byteLength(text, "utf8");
	const lines = splitLines(text);
	if (lines.length <= maxLines && totalBytes <= maxBytes)
		return result(text, lines, totalBytes, lines.length, null, maxLines, maxBytes);

	const { kept, truncatedBy } = countFittingLines(lines, "head", maxLines, maxBytes);
	const content = lines.slice(0, kept).join("\n");
	return result(content, lines, totalBytes, kept, truncatedBy ?? "lines", maxLines, maxBytes, {
		firstLineExceedsLimit: kept === 0 && lines.length > 0,
	});
}

/** Keeps the last lines of `text` within both limits (for command output: the end matters). */
export function truncateTail(text: string, options: TruncationOptions = {}): TruncationResult {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = Buffer.byteLength(text, "utf8");
	const lines = splitLines(text);
	if (lines.length <= maxLines && totalBytes <= maxBytes)
		return result(text, lines, totalBytes, lines.length, null, maxLines, maxBytes);

	const { kept, truncatedBy } = countFittingLines(lines, "tail", maxLines, maxBytes);
	const lastLine = lines.at(-1);
	if (kept === 0 && lastLine !== undefined) {
		const content = tailBytes(lastLine, maxBytes);
		return result(content, lines, totalBytes, 1, "bytes", maxLines, maxBytes, { lastLinePartial: true });
	}
	const content = lines.slice(lines.length - kept).join("\n");
	return result(content, lines, totalBytes, kept, truncatedBy ?? "lines", maxLines, maxBytes);
}

/** The longest tail of `text` that fits in `maxBytes`, starting on a character boundary. */
export function tailBytes(text: string, maxBytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	if (buffer.length <= maxBytes) return text;
	return buffer.subarray(characterStart(buffer, buffer.length - maxBytes)).toString("utf8");
}

/** Cuts one line to `maxChars` characters, marking the cut. */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
	if (line.length <= maxChars) return { text: line, wasTruncated: false };
	return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}

/** "1.5 KB"-style size for notices. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
