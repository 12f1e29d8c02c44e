import { truncateLine } from "../truncate.js";
import type { GrepFileResult } from "./engine.js";

/** One matching line as `structuredContent` reports it. */
export interface GrepMatch {
	/** Relative to the searched folder with `/` separators; for a single file, its name. */
	path: string;
	/** 1-indexed line number. */
	line: number;
	/** The line, cut at `GREP_MAX_LINE_LENGTH` characters. */
	text: string;
}

export interface FormattedGrep {
	/** Output lines: `path:line: text` for matches, `path-line- text` for context, `--` between groups. */
	lines: string[];
	/** The matches shown, in order (at most `limit`). */
	matches: GrepMatch[];
	/** For each output line, how many matches the output holds up to and including it. */
	matchesThrough: number[];
	/** More matches exist than `limit`. */
	limitReached: boolean;
	/** Some line was cut at `GREP_MAX_LINE_LENGTH` characters. */
	linesTruncated: boolean;
}

/** The text shown for a line: no `\r` before the line break, no byte-order mark on line 1, long lines cut. */
function displayText(text: string, line: number): { text: string; wasTruncated: boolean } {
	let shown = text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
	if (line === 1 && shown.charCodeAt(0) === 0xfeff) shown = shown.slice(1);
	return truncateLine(shown);
}

/**
 * Turns engine results into the tool's output: the first `limit` matches in path-then-line order and the
 * context lines within `context` of them. Engines may hand over more lines than that (ripgrep prints
 * after-context past its per-file cap, the built-in engine stops at a different point); this step alone
 * decides what is shown, which keeps the two engines' output identical.
 */
export function formatGrep(files: readonly GrepFileResult[], limit: number, context: number): FormattedGrep {
	const lines: string[] = [];
	const matches: GrepMatch[] = [];
	const matchesThrough: number[] = [];
	let limitReached = false;
	let linesTruncated = false;

	for (const file of files) {
		const keptLines: number[] = [];
		for (const line of file.lines) {
			if (!line.match) continue;
			if (matches.length + keptLines.length >= limit) {
				limitReached = true;
				break;
			}
			keptLines.push(line.line);
		}
		if (keptLines.length === 0) {
			if (limitReached) break;
			continue;
		}
		let keptIndex = 0;
		let exactIndex = 0;
		let previousShown = -1;
		for (const line of file.lines) {
			let kept = keptLines[keptIndex];
			while (kept !== undefined && kept + context < line.line) kept = keptLines[++keptIndex];
			if (kept === undefined) break;
			if (line.line < kept - context) continue;
			if (line.line === previousShown) continue;
			if (context > 0 && lines.length > 0 && line.line !== previousShown + 1) {
				lines.push("--");
				matchesThrough.push(matches.length);
			}
			let exact = keptLines[exactIndex];
			while (exact !== undefined && exact < line.line) exact = keptLines[++exactIndex];
			const isKept = line.line === exact;
			const shown = displayText(line.text, line.line);
			if (shown.wasTruncated) linesTruncated = true;
			if (isKept) {
				matches.push({ path: file.path, line: line.line, text: shown.text });
				lines.push(`${file.path}:${line.line}: ${shown.text}`);
			} else {
				lines.push(`${file.path}-${line.line}- ${shown.text}`);
			}
			matchesThrough.push(matches.length);
			previousShown = line.line;
		}
		if (limitReached) break;
	}
	return { lines, matches, matchesThrough, limitReached, linesTruncated };
}
