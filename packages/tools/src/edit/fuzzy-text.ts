import { countLeading } from "./sorted-prefix.js";

/**
 * The loose form of text the edit tool falls back to when `oldText` has no exact match: typographic
 * quotes become ASCII quotes, Unicode dashes become `-`, special spaces become a plain space, and
 * whitespace at the end of each line is dropped. Models often write these characters differently from
 * the file; none of the changes alters the meaning of code.
 */

/** Spaces and tabs plus the special spaces (no-break, ogham, en quad … hair, narrow no-break, math, ideographic). */
const BLANK = " \\t\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000";

/**
 * What the loose form changes: a run of blanks that ends a line (the look-behind makes the run start at
 * its first blank, so a long run is scanned once), or one character with an ASCII stand-in. Special
 * spaces inside a line are turned into plain spaces by the second branch.
 */
const LOOSENED = new RegExp(
	`(?<![${BLANK}])([${BLANK}]+)(?=\\n|$)|[\\u00a0\\u1680\\u2000-\\u200a\\u2010-\\u2015\\u2018-\\u201f\\u2212\\u202f\\u205f\\u3000]`,
	"g",
);

/** The ASCII stand-in of a character the loose form replaces (each one UTF-16 unit, so positions stay). */
function standIn(character: string): string {
	const code = character.charCodeAt(0);
	if (code >= 0x2018 && code <= 0x201b) return "'"; // ‘ ’ ‚ ‛
	if (code >= 0x201c && code <= 0x201f) return '"'; // “ ” „ ‟
	if ((code >= 0x2010 && code <= 0x2015) || code === 0x2212) return "-"; // hyphens, dashes, minus sign
	return " ";
}

/**
 * Text in loose form and the way back to its source. Only dropped line-end blanks move positions:
 * `dropAt[k]` is the loose position just after the k-th dropped run (its line's `\n`, or the end), and
 * `droppedUpTo[k]` how many source characters were dropped up to and including that run.
 */
export interface LooseText {
	text: string;
	dropAt: number[];
	droppedUpTo: number[];
}

/**
 * Maps a position in the loose text back to its source. A position at a line end maps past the dropped
 * blanks, so a span `[start, end)` that ends at a line end takes them in.
 */
export function toSourceOffset(loose: LooseText, offset: number): number {
	const { dropAt, droppedUpTo } = loose;
	// The number of drops at or before `offset` (`dropAt` ascends).
	const drops = countLeading(dropAt, (at) => at <= offset);
	if (drops === 0) return offset;
	const dropped = droppedUpTo[drops - 1];
	if (dropped === undefined) throw new Error(`Loose text has ${dropAt.length} drops but ${droppedUpTo.length} totals`);
	return offset + dropped;
}

/**
 * Builds the loose form of `source` with one native regular-expression pass: untouched stretches are
 * copied by the engine, so a large file with few special characters costs little more than a scan.
 */
export function toLooseText(source: string): LooseText {
	const dropAt: number[] = [];
	const droppedUpTo: number[] = [];
	let dropped = 0;
	const text = source.replace(LOOSENED, (match: string, lineEndBlanks: string | undefined, offset: number) => {
		if (lineEndBlanks === undefined) return standIn(match);
		dropAt.push(offset - dropped);
		dropped += match.length;
		droppedUpTo.push(dropped);
		return "";
	});
	return { text, dropAt, droppedUpTo };
}

/** The loose form of `text` alone (for the `oldText` of an edit). */
export function looseForm(text: string): string {
	return toLooseText(text).text;
}
