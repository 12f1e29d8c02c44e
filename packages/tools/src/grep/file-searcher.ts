import type { CompiledPattern } from "./pattern.js";

/** One line of a grep result: a match, or a context line around one. */
export interface GrepLine {
	/** 1-indexed line number. */
	line: number;
	/** The line without its `\n` (a `\r` before it is kept; the formatter drops it). */
	text: string;
	match: boolean;
}

const NEWLINE = 10;

function countNewlines(bytes: Buffer): number {
	let count = 0;
	let position = bytes.indexOf(NEWLINE);
	while (position >= 0) {
		count++;
		position = bytes.indexOf(NEWLINE, position + 1);
	}
	return count;
}

/** The text of a line for matching: without a trailing `\r`, as ripgrep's `--crlf` sees it. */
function withoutCarriageReturn(text: string): string {
	return text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
}

/**
 * Searches one file fed in runs of whole lines, keeping the matches (up to `maxMatches`) and the
 * context lines around them. Candidate positions come from one pass of the pattern over the run (a
 * byte search for case-sensitive literals, so most files are never decoded); only lines holding a
 * candidate are tested on their own. Line numbers of runs without candidates are counted only when a
 * later run needs them.
 */
export class FileSearcher {
	/** Matches and context lines found so far, in line order. */
	readonly lines: GrepLine[] = [];
	matchCount = 0;
	/** Number of the first line of the next run. */
	private nextLine = 1;
	/** A run without candidates whose lines are not counted yet. */
	private pending: Buffer | undefined;
	/** The last `context` lines before the next run, for the before-context of a match at its start. */
	private tail: GrepLine[] = [];
	private afterLeft = 0;
	private lastEmitted = 0;

	/**
	 * @param pattern The compiled pattern.
	 * @param context Lines of context before and after each match.
	 * @param maxMatches Matching lines to find before stopping.
	 */
	constructor(
		private readonly pattern: CompiledPattern,
		private readonly context: number,
		private readonly maxMatches: number,
	) {}

	/** True once more input cannot change the result. */
	get finished(): boolean {
		return this.pattern.never || (this.matchCount >= this.maxMatches && this.afterLeft === 0);
	}

	/**
	 * Searches the next run of the file. `bytes` holds whole lines, each ended by `\n`, except for the
	 * final run (`atEnd`), which is the rest of the file. `bytes` may be reused once this returns.
	 */
	push(bytes: Buffer, atEnd: boolean): void {
		if (this.finished) return;
		const { literalBytes } = this.pattern;
		if (literalBytes !== undefined && this.afterLeft === 0 && bytes.indexOf(literalBytes) < 0) {
			this.defer(bytes, atEnd);
			return;
		}
		const text = bytes.toString("utf8");
		let candidate = this.matchCount < this.maxMatches ? this.find(text, 0) : -1;
		if (candidate < 0 && this.afterLeft === 0) {
			this.defer(bytes, atEnd);
			return;
		}
		this.settle();
		const length = text.length;
		let position = 0;
		let line = this.nextLine;
		while (position < length && (candidate >= 0 || this.afterLeft > 0)) {
			const newline = text.indexOf("\n", position);
			const lineEnd = newline < 0 ? length : newline;
			if (candidate < 0 || candidate > lineEnd) {
				if (this.afterLeft > 0) {
					this.emit(line, text.slice(position, lineEnd), false);
					this.afterLeft--;
					position = lineEnd + 1;
					line++;
					continue;
				}
				// Jump to the line holding the candidate, counting the lines passed.
				let next = newline;
				do {
					position = next + 1;
					line++;
					next = text.indexOf("\n", position);
				} while (next >= 0 && next < candidate);
				continue;
			}
			const lineText = text.slice(position, lineEnd);
			const isMatch = this.pattern.literal !== undefined || this.pattern.line.test(withoutCarriageReturn(lineText));
			if (isMatch) {
				this.emitBefore(text, position, line);
				this.emit(line, lineText, true);
				this.matchCount++;
				this.afterLeft = this.context;
			} else if (this.afterLeft > 0) {
				this.emit(line, lineText, false);
				this.afterLeft--;
			}
			position = lineEnd + 1;
			line++;
			candidate = this.matchCount < this.maxMatches && position < length ? this.find(text, position) : -1;
		}
		if (atEnd) return;
		for (let next = text.indexOf("\n", position); next >= 0; next = text.indexOf("\n", next + 1)) line++;
		this.nextLine = line;
		if (this.context > 0) this.keepTail(text);
	}

	private find(text: string, from: number): number {
		const { literal, scan } = this.pattern;
		if (literal !== undefined) return text.indexOf(literal, from);
		scan.lastIndex = from;
		const found = scan.exec(text);
		return found === null ? -1 : found.index;
	}

	private emit(line: number, text: string, match: boolean): void {
		this.lines.push({ line, text, match });
		this.lastEmitted = line;
	}

	/** Emits the context lines before a match at `line` (starting at `position` of `text`) not emitted yet. */
	private emitBefore(text: string, position: number, line: number): void {
		const from = Math.max(line - this.context, this.lastEmitted + 1);
		if (from >= line) return;
		const found: GrepLine[] = [];
		let number = line - 1;
		let end = position - 1;
		while (number >= from && end >= 0) {
			const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
			found.push({ line: number, text: text.slice(start, end), match: false });
			number--;
			end = start - 1;
		}
		for (const earlier of this.tail) if (earlier.line >= from && earlier.line <= number) this.lines.push(earlier);
		// `found` was gathered walking back from the match; the lines go out in file order.
		for (const earlier of found.reverse()) this.lines.push(earlier);
		this.lastEmitted = line - 1;
	}

	/** A run without candidates: keep it uncounted until a later run needs line numbers. */
	private defer(bytes: Buffer, atEnd: boolean): void {
		if (atEnd) return;
		this.settle();
		// A copy: the caller reuses its buffer for the next run.
		this.pending = Buffer.from(bytes);
	}

	private settle(): void {
		const pending = this.pending;
		if (pending === undefined) return;
		this.pending = undefined;
		this.nextLine += countNewlines(pending);
		if (this.context > 0) {
			// Decode only the end of the run: enough bytes for `context` lines.
			let boundary = pending.length - 1;
			for (let count = 0; count < this.context && boundary >= 0; count++)
				boundary = boundary === 0 ? -1 : pending.lastIndexOf(NEWLINE, boundary - 1);
			this.keepTail(pending.subarray(boundary + 1).toString("utf8"));
		}
	}

	/** Remembers the last `context` lines of a run (which ends with `\n`) and `nextLine` is just past. */
	private keepTail(text: string): void {
		const kept: GrepLine[] = [];
		let number = this.nextLine - 1;
		let end = text.length - 1;
		while (kept.length < this.context && end >= 0) {
			const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
			kept.push({ line: number, text: text.slice(start, end), match: false });
			number--;
			end = start - 1;
		}
		kept.reverse();
		const missing = this.context - kept.length;
		this.tail = missing > 0 ? [...this.tail.slice(-missing), ...kept] : kept;
	}
}
