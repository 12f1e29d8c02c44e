import { GantryError } from "@gantry/ai";
import type { PatchAction, PatchChunk } from "./types.js";

/**
 * Reading Codex's patch format (`*** Begin Patch` … `*** End Patch`) with the leniency Codex has: the
 * markers may be padded with whitespace, the file headers too, the first `@@` may be left out, blank
 * lines between hunks are skipped, CRLF line breaks are accepted, and a patch wrapped in a heredoc
 * (`<<'EOF'` … `EOF`, as models write it for a shell) is unwrapped.
 */

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
// The headers without their space, so a header with the path left out is read (and refused) as one.
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const END_OF_FILE = "*** End of File";
const HEREDOC_OPENERS = new Set(["<<EOF", "<<'EOF'", '<<"EOF"']);
const FILE_HEADERS = `'${ADD} <path>', '${DELETE} <path>' or '${UPDATE} <path>'`;

/** A patch that does not follow the format; `line` is 1-based in the text given to `parsePatch`. */
export class PatchParseError extends GantryError<"invalid_patch"> {
	readonly line: number;
	/** What the parser expected at that line. */
	readonly expected: string;

	constructor(line: number, expected: string, found: string | undefined) {
		const got = found === undefined ? "the end of the patch" : JSON.stringify(found);
		super("invalid_patch", `Invalid patch at line ${line}: expected ${expected}, found ${got}.`);
		this.name = "PatchParseError";
		this.line = line;
		this.expected = expected;
	}
}

/** The patch's lines with their 1-based line numbers in the original text. */
interface NumberedLines {
	lines: string[];
	/** Line number of `lines[0]`. */
	first: number;
}

/** Drops blank lines around the patch (as Codex trims it), keeping the original numbering. */
function trimmedLines(text: string): NumberedLines {
	const all = text.split(/\r?\n/);
	let start = 0;
	let end = all.length;
	while (start < end && all[start]?.trim() === "") start++;
	while (end > start && all[end - 1]?.trim() === "") end--;
	const lines = all.slice(start, end);
	// Codex trims the whole text, so padding before the first and after the last marker is dropped
	// (one line alone loses both).
	const firstLine = lines[0];
	if (firstLine !== undefined) lines[0] = firstLine.trimStart();
	const lastIndex = lines.length - 1;
	const lastLine = lines[lastIndex];
	if (lastLine !== undefined) lines[lastIndex] = lastLine.trimEnd();
	return { lines, first: start + 1 };
}

/** The lines between the markers, unwrapping a heredoc when the plain form does not fit. */
function bodyOf({ lines, first }: NumberedLines): NumberedLines {
	const [opener] = lines;
	const closer = lines.at(-1);
	const opens = opener?.trim() === BEGIN;
	const closes = lines.length > 1 && closer?.trim() === END;
	if (opens && closes) return { lines: lines.slice(1, -1), first: first + 1 };
	const heredoc =
		lines.length >= 4 && opener !== undefined && HEREDOC_OPENERS.has(opener) && closer?.endsWith("EOF") === true;
	if (heredoc) {
		const inner = lines.slice(1, -1);
		if (inner[0]?.trim() === BEGIN && inner.length > 1 && inner.at(-1)?.trim() === END)
			return { lines: inner.slice(1, -1), first: first + 2 };
		if (inner[0]?.trim() !== BEGIN) throw new PatchParseError(first + 1, `'${BEGIN}'`, inner[0]);
		throw new PatchParseError(first + inner.length, `'${END}' as the last line`, inner[inner.length - 1]);
	}
	if (!opens) throw new PatchParseError(first, `'${BEGIN}' as the first line`, lines[0]);
	const last = lines.length > 1 ? lines[lines.length - 1] : undefined;
	throw new PatchParseError(first + Math.max(lines.length - 1, 1), `'${END}' as the last line`, last);
}

/**
 * Reads a patch in Codex's format into its file operations, in order. Paths are returned as written
 * (relative paths are the caller's to resolve).
 *
 * @throws PatchParseError naming the line and what was expected there.
 * @example
 * parsePatch("*** Begin Patch\n*** Delete File: old.txt\n*** End Patch");
 * // [{ type: "delete", path: "old.txt", line: 2 }]
 */
export function parsePatch(text: string): PatchAction[] {
	const { lines, first } = bodyOf(trimmedLines(text));
	const actions: PatchAction[] = [];
	let index = 0;
	while (index < lines.length) {
		const line = first + index;
		const header = lineAt(lines, index).trim();
		index++;
		if (header === "") continue;
		if (header.startsWith(ADD)) {
			const path = filePath(header, ADD, line);
			const content: string[] = [];
			for (let added = lines[index]; added?.startsWith("+"); added = lines[++index])
				content.push(`${added.slice(1)}\n`);
			actions.push({ type: "add", path, content: content.join(""), line });
		} else if (header.startsWith(DELETE)) {
			actions.push({ type: "delete", path: filePath(header, DELETE, line), line });
		} else if (header.startsWith(UPDATE)) {
			const path = filePath(header, UPDATE, line);
			const move = lines[index]?.trim();
			const movePath = move?.startsWith(MOVE) ? filePath(move, MOVE, line + 1) : undefined;
			if (movePath !== undefined) index++;
			const chunks: PatchChunk[] = [];
			index = readChunks(lines, index, first, chunks);
			if (chunks.length === 0)
				throw new PatchParseError(first + index, `a '@@' hunk with the changes to ${path}`, lines[index]);
			actions.push(
				movePath === undefined
					? { type: "update", path, chunks, line }
					: { type: "update", path, movePath, chunks, line },
			);
		} else if (header === END) {
			throw new PatchParseError(line, `nothing after '${END}' (it ends the patch)`, lines[index]);
		} else {
			throw new PatchParseError(line, `a file header (${FILE_HEADERS}) or '${END}'`, lines[index - 1]);
		}
	}
	return actions;
}

/** `lines[index]` for an index the caller keeps below `lines.length`. */
function lineAt(lines: readonly string[], index: number): string {
	const line = lines[index];
	if (line === undefined) throw new Error(`Patch line ${index} is past the end of the patch (${lines.length} lines)`);
	return line;
}

function filePath(header: string, marker: string, line: number): string {
	const path = header.slice(marker.length).trim();
	if (path === "") throw new PatchParseError(line, `a path after '${marker}'`, header);
	return path;
}

/** Reads the hunks of one update section from `index`; returns where the section ends. */
function readChunks(lines: string[], start: number, first: number, chunks: PatchChunk[]): number {
	let index = start;
	while (index < lines.length) {
		const line = lineAt(lines, index);
		if (line.trim() === "") {
			index++;
			continue;
		}
		// The next file header (Codex: any line starting with '*').
		if (line.startsWith("*")) break;
		index = readChunk(lines, index, first, chunks);
	}
	return index;
}

/** Reads one hunk at `index` (its `@@` line optional for the first one); returns the index after it. */
function readChunk(lines: string[], start: number, first: number, chunks: PatchChunk[]): number {
	let index = start;
	const header = lineAt(lines, index);
	const chunk: PatchChunk = { oldLines: [], newLines: [], lines: [], endOfFile: false, line: first + index };
	if (header.trimEnd() === "@@") index++;
	else if (header.startsWith("@@ ")) {
		const context = header.slice(3).trim();
		if (context !== "") chunk.context = context;
		index++;
	} else if (chunks.length > 0) {
		throw new PatchParseError(first + index, "a '@@' line starting the next hunk", header);
	}
	let changed = 0;
	for (; index < lines.length; index++) {
		const line = lineAt(lines, index);
		if (line.trim() === END_OF_FILE) {
			if (changed === 0) break;
			chunk.endOfFile = true;
			index++;
			break;
		}
		const marker = line === "" ? " " : line[0];
		if (marker === " " || marker === "-" || marker === "+") {
			const text = line.slice(1);
			chunk.lines.push({ kind: marker, text });
			if (marker !== "+") chunk.oldLines.push(text);
			if (marker !== "-") chunk.newLines.push(text);
		} else if (changed === 0) {
			throw new PatchParseError(
				first + index,
				"a hunk line starting with ' ' (context), '-' (removed) or '+' (added)",
				line,
			);
		} else break;
		changed++;
	}
	if (changed === 0) {
		throw new PatchParseError(
			first + index,
			"hunk lines starting with ' ' (context), '-' (removed) or '+' (added)",
			lines[index],
		);
	}
	chunks.push(chunk);
	return index;
}
