import { diffArrays } from "diff";
import type { TextChange } from "./apply.js";

/** A unified diff of one edit call and where it starts. */
export interface UnifiedDiff {
	/** `--- path` / `+++ path` headers and `@@ -a,b +c,d @@` hunks; no trailing newline. */
	diff: string;
	/** 1-based line number, in the new file, of the first added or removed line. */
	firstChangedLine: number;
}

export interface UnifiedDiffOptions {
	/** The name in the `---` / `+++` headers. */
	path: string;
	/** Unchanged lines shown around each change. Default 3. */
	context?: number;
}

/** Above this many differing lines inside one hunk, the hunk shows all old lines then all new ones. */
const MAX_EDIT_LENGTH = 1000;
const NO_NEWLINE = "\\ No newline at end of file";

type LineKind = " " | "-" | "+";

/** A run of changes close enough to share one hunk, widened to whole lines. */
interface Group {
	changes: TextChange[];
	/** Offsets in the old text of the first and past the last line the changes touch. */
	start: number;
	end: number;
	/** 0-based line index of `start`. */
	startLine: number;
	/** 0-based line index just past the lines the changes touch. */
	endLine: number;
}

/** Splits text into lines that keep their `\n` (the last one may have none). */
function splitLines(text: string): string[] {
	const lines: string[] = [];
	let from = 0;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", from)) {
		lines.push(text.slice(from, at + 1));
		from = at + 1;
	}
	if (from < text.length) lines.push(text.slice(from));
	return lines;
}

/** Counts line breaks in `text` between `from` and `to`. */
function countLineBreaks(text: string, from: number, to: number): number {
	let count = 0;
	for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
	return count;
}

function lineStartBefore(text: string, offset: number): number {
	return offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
}

function lineEndAfter(text: string, offset: number): number {
	const at = text.indexOf("\n", offset);
	return at === -1 ? text.length : at + 1;
}

/**
 * Groups sorted, non-overlapping changes into hunks. Only the text around the changes is scanned
 * (plus one pass counting line breaks up to the last change), so a small edit in a huge file stays cheap.
 */
function groupChanges(text: string, changes: readonly TextChange[], context: number): Group[] {
	const groups: Group[] = [];
	let countedTo = 0;
	let linesBefore = 0;
	for (const change of changes) {
		const start = lineStartBefore(text, change.start);
		// The hunk may stop right after the change only when both sides end a line there; otherwise the
		// rest of the line after the change belongs to the hunk.
		const oldEndsLine = text[change.end - 1] === "\n";
		const newEndsLine = change.replacement.endsWith("\n") || (change.replacement === "" && start === change.start);
		const end = oldEndsLine && newEndsLine ? change.end : lineEndAfter(text, change.end);
		linesBefore += countLineBreaks(text, countedTo, start);
		countedTo = start;
		const startLine = linesBefore;
		const endLine = startLine + splitLines(text.slice(start, end)).length;
		const last = groups.at(-1);
		if (last && startLine - last.endLine <= 2 * context) {
			last.changes.push(change);
			last.end = Math.max(last.end, end);
			last.endLine = Math.max(last.endLine, endLine);
		} else {
			groups.push({ changes: [change], start, end, startLine, endLine });
		}
	}
	return groups;
}

/** The old and new lines of a group, compared line by line (common ends first, a real diff in between). */
function diffGroup(oldLines: string[], newLines: string[]): { kind: LineKind; line: string }[] {
	let head = 0;
	while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
	let tail = 0;
	while (
		tail < oldLines.length - head &&
		tail < newLines.length - head &&
		oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
	)
		tail++;
	const oldMiddle = oldLines.slice(head, oldLines.length - tail);
	const newMiddle = newLines.slice(head, newLines.length - tail);
	const result = oldLines.slice(0, head).map((line) => ({ kind: " " as LineKind, line }));
	const parts = diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH }) ?? [
		{ removed: true, added: false, value: oldMiddle, count: oldMiddle.length },
		{ removed: false, added: true, value: newMiddle, count: newMiddle.length },
	];
	for (const part of parts) {
		const kind: LineKind = part.added ? "+" : part.removed ? "-" : " ";
		for (const line of part.value) result.push({ kind, line });
	}
	for (const line of oldLines.slice(oldLines.length - tail)) result.push({ kind: " ", line });
	return result;
}

function hunkRange(start: number, count: number): string {
	// An empty range names the line before it (the unified diff convention).
	return count === 0 ? `${start - 1},0` : `${start},${count}`;
}

/**
 * Builds the unified diff of `changes` (sorted, non-overlapping, positions in `text`) from their known
 * positions: the whole file is never diffed, only each changed region with `context` lines around it.
 */
export function unifiedDiff(text: string, changes: readonly TextChange[], options: UnifiedDiffOptions): UnifiedDiff {
	const context = options.context ?? 3;
	const output = [`--- ${options.path}`, `+++ ${options.path}`];
	let firstChangedLine = 0;
	let lineDelta = 0;
	for (const group of groupChanges(text, changes, context)) {
		let before = group.start;
		let beforeCount = 0;
		while (beforeCount < context && before > 0) {
			before = lineStartBefore(text, before - 1);
			beforeCount++;
		}
		let after = group.end;
		for (let afterCount = 0; afterCount < context && after < text.length; afterCount++)
			after = lineEndAfter(text, after);

		const pieces: string[] = [];
		let from = group.start;
		for (const change of group.changes) {
			pieces.push(text.slice(from, change.start), change.replacement);
			from = change.end;
		}
		pieces.push(text.slice(from, group.end));
		const contextBefore = splitLines(text.slice(before, group.start));
		const contextAfter = splitLines(text.slice(group.end, after));
		const lines = [
			...contextBefore.map((line) => ({ kind: " " as LineKind, line })),
			...diffGroup(splitLines(text.slice(group.start, group.end)), splitLines(pieces.join(""))),
			...contextAfter.map((line) => ({ kind: " " as LineKind, line })),
		];

		const oldStart = group.startLine - contextBefore.length + 1;
		const newStart = oldStart + lineDelta;
		const oldCount = lines.filter((entry) => entry.kind !== "+").length;
		const newCount = lines.filter((entry) => entry.kind !== "-").length;
		output.push(`@@ -${hunkRange(oldStart, oldCount)} +${hunkRange(newStart, newCount)} @@`);
		let newLine = newStart;
		for (const { kind, line } of lines) {
			if (firstChangedLine === 0 && kind !== " ") firstChangedLine = newLine;
			if (kind !== "-") newLine++;
			const ended = line.endsWith("\n");
			output.push(kind + (ended ? line.slice(0, -1) : line));
			if (!ended) output.push(NO_NEWLINE);
		}
		lineDelta += newCount - oldCount;
	}
	return { diff: output.join("\n"), firstChangedLine: Math.max(firstChangedLine, 1) };
}
