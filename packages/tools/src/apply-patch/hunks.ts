import type { TextChange } from "../edit/apply.js";
import { seekLines } from "./seek.js";
import type { PatchChunk, PatchLine } from "./types.js";

/** The changes an update section makes to one file's LF text, and how many hunks matched only loosely. */
export interface HunkPlan {
	/** Sorted by position, never overlapping; replacements use LF line breaks. */
	changes: TextChange[];
	/** Hunks (or their `@@` lines) found only after ignoring whitespace at line ends or punctuation forms. */
	looseMatches: number;
}

/** The lines shown in an error, each indented, at most this many. */
const SHOWN_LINES = 12;

/** The text as lines (a final line break ends the last line, it adds no empty one) and where each starts. */
function linesOf(text: string): { lines: string[]; starts: number[] } {
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	const starts: number[] = [];
	let offset = 0;
	for (const line of lines) {
		starts.push(offset);
		offset += line.length + 1;
	}
	return { lines, starts };
}

/** The context and removed lines of a hunk as the patch wrote them, indented. */
function quoted(hunkLines: readonly PatchLine[]): string {
	const lines = hunkLines.filter((line) => line.kind !== "+").map((line) => `${line.kind}${line.text}`);
	const shown = lines.slice(0, SHOWN_LINES).map((line) => `    ${line}`);
	if (lines.length > SHOWN_LINES) shown.push(`    … ${lines.length - SHOWN_LINES} more`);
	return shown.join("\n");
}

/** Where the first line of a hunk that did not apply does occur, to say what went wrong. */
function hint(lines: readonly string[], pattern: readonly string[], from: number): string {
	const firstLine = pattern.find((line) => line.trim() !== "");
	if (firstLine === undefined) return "";
	const anywhere = seekLines(lines, [firstLine], 0);
	if (anywhere === undefined) return ` Its first line ${JSON.stringify(firstLine.trim())} is not in the file at all.`;
	if (anywhere.index < from) {
		const after = seekLines(lines, [firstLine], from);
		if (after === undefined)
			return ` Its first line is at line ${anywhere.index + 1}, before the place the earlier hunks reached (line ${from + 1}); hunks must come in file order.`;
		return ` Its first line is at line ${after.index + 1}, but the lines after it differ.`;
	}
	return ` Its first line is at line ${anywhere.index + 1}, but the lines after it differ.`;
}

/**
 * The text a hunk found at `start` puts in place of its old lines: its added lines, and for its context
 * lines the file's own lines (a loose match must not rewrite the indentation or spacing it ignored).
 */
function replacementText(hunkLines: readonly PatchLine[], lines: readonly string[], start: number): string {
	const pieces: string[] = [];
	let oldIndex = start;
	for (const line of hunkLines) {
		if (line.kind === "+") pieces.push(`${line.text}\n`);
		else if (line.kind === " ") pieces.push(`${lines[oldIndex++] ?? line.text}\n`);
		else oldIndex++;
	}
	return pieces.join("");
}

/**
 * Places the hunks of an update section in `text` (LF line breaks) the way Codex does: each hunk's
 * `@@` context line is looked for from where the previous hunk ended, then its old lines from there on
 * (loosely, see seek.ts; a hunk closed by `*** End of File` at the end first); an unmatched final empty
 * line is dropped and the search repeated. A hunk that only adds lines goes right after its `@@` context
 * line, or at the end of the file when it has none. A replacement that reaches the end of the file ends
 * with a line break. Context lines keep the file's text (Codex writes the patch's over them).
 *
 * @throws Error naming the file, the hunk, its line in the patch and the lines it expected to find.
 */
export function planHunks(text: string, chunks: readonly PatchChunk[], displayPath: string): HunkPlan {
	const { lines, starts } = linesOf(text);
	const offsetOf = (line: number) => starts[line] ?? text.length;
	const located: (TextChange & { order: number })[] = [];
	let from = 0;
	let looseMatches = 0;
	chunks.forEach((chunk, order) => {
		const where = `${displayPath}, hunk ${order + 1} (patch line ${chunk.line})`;
		if (chunk.context !== undefined) {
			const found = seekLines(lines, [chunk.context], from);
			if (found === undefined) {
				throw new Error(
					`${where}: its @@ line ${JSON.stringify(chunk.context)} was not found in the file from line ${from + 1} on.${hint(lines, [chunk.context], from)} Read the file again and name a line that is there.`,
				);
			}
			if (found.tier > 0) looseMatches++;
			from = found.index + 1;
		}
		let oldLines = chunk.oldLines;
		let hunkLines = chunk.lines;
		let start: number;
		if (oldLines.length === 0) {
			start = chunk.context === undefined ? lines.length : from;
		} else {
			let found = seekLines(lines, oldLines, from, chunk.endOfFile);
			const last = hunkLines[hunkLines.length - 1];
			if (found === undefined && last?.kind === " " && last.text === "") {
				// A final empty context line is often the patch's own trailing newline: try without it.
				oldLines = oldLines.slice(0, -1);
				hunkLines = hunkLines.slice(0, -1);
				found = seekLines(lines, oldLines, from, chunk.endOfFile);
			}
			if (found === undefined) {
				const place = chunk.endOfFile ? "at the end of the file" : `from line ${from + 1} of the file on`;
				throw new Error(
					`${where}: expected to find these lines ${place} (not even ignoring whitespace at line ends and typographic punctuation):\n${quoted(chunk.lines)}\n${hint(lines, oldLines, from).trim()} Read the file again and copy the context and removed lines exactly.`,
				);
			}
			if (found.tier > 0) looseMatches++;
			start = found.index;
			from = found.index + oldLines.length;
		}
		const end = start + oldLines.length;
		let replacement = replacementText(hunkLines, lines, start);
		// Adding after a last line that has no line break gives that line its break first.
		if (start === lines.length && oldLines.length === 0 && text !== "" && !text.endsWith("\n") && replacement !== "")
			replacement = `\n${replacement}`;
		located.push({ start: offsetOf(start), end: offsetOf(end), replacement, order });
	});
	located.sort((left, right) => left.start - right.start || left.order - right.order);
	let previous: (typeof located)[number] | undefined;
	for (const change of located) {
		if (previous !== undefined && change.start < previous.end) {
			throw new Error(
				`${displayPath}: hunks ${previous.order + 1} and ${change.order + 1} change the same lines; merge them into one hunk.`,
			);
		}
		previous = change;
	}
	return { changes: located.map(({ start, end, replacement }) => ({ start, end, replacement })), looseMatches };
}
