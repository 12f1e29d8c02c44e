/** ANSI-aware measuring, clipping and wrapping of terminal text. */

// CSI sequences (colours, cursor moves) and OSC sequences (titles, links) take no columns.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with the ESC control character
const ANSI_PATTERN = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with the ESC control character
const ANSI_AT_START = /^(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))/;
const RESET = "\x1b[0m";

/** The text without escape sequences. */
export function stripAnsi(text: string): string {
	return text.replace(ANSI_PATTERN, "");
}

/** Columns a code point takes: 2 for wide East Asian and emoji ranges, 0 for combining marks. */
function charWidth(codePoint: number): number {
	if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
	if (
		(codePoint >= 0x300 && codePoint <= 0x36f) ||
		codePoint === 0x200d ||
		(codePoint >= 0xfe00 && codePoint <= 0xfe0f)
	) {
		return 0;
	}
	if (
		(codePoint >= 0x1100 && codePoint <= 0x115f) ||
		(codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
		(codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
		(codePoint >= 0xf900 && codePoint <= 0xfaff) ||
		(codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
		(codePoint >= 0xff00 && codePoint <= 0xff60) ||
		(codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
		(codePoint >= 0x1f300 && codePoint <= 0x1faff) ||
		(codePoint >= 0x20000 && codePoint <= 0x3fffd)
	) {
		return 2;
	}
	return 1;
}

/** Columns the text takes on a terminal (escape sequences excluded). */
export function visibleWidth(text: string): number {
	let width = 0;
	for (const char of stripAnsi(text)) width += charWidth(char.codePointAt(0) ?? 0);
	return width;
}

/** Tabs as spaces and carriage returns dropped, so column counting stays exact. */
export function sanitizeLine(line: string): string {
	return line.replace(/\t/g, "    ").replace(/\r/g, "");
}

/**
 * Cuts `text` to at most `width` columns, keeping its escape sequences; a cut line ends with `…` and a
 * reset, so a colour never leaks into the next line.
 */
export function truncateToWidth(text: string, width: number): string {
	if (visibleWidth(text) <= width) return text;
	if (width <= 0) return "";
	let result = "";
	let used = 0;
	let rest = text;
	while (rest.length > 0) {
		const sequence = ANSI_AT_START.exec(rest);
		if (sequence) {
			result += sequence[0];
			rest = rest.slice(sequence[0].length);
			continue;
		}
		const char = String.fromCodePoint(rest.codePointAt(0) ?? 0);
		const charColumns = charWidth(char.codePointAt(0) ?? 0);
		if (used + charColumns > width - 1) break;
		result += char;
		used += charColumns;
		rest = rest.slice(char.length);
	}
	return `${result}…${RESET}`;
}

/** Splits one line (no newlines) into pieces of at most `width` columns, escape sequences kept. */
export function wrapToWidth(text: string, width: number): string[] {
	if (width <= 0 || visibleWidth(text) <= width) return [text];
	const rows: string[] = [];
	let row = "";
	let used = 0;
	let rest = text;
	while (rest.length > 0) {
		const sequence = ANSI_AT_START.exec(rest);
		if (sequence) {
			row += sequence[0];
			rest = rest.slice(sequence[0].length);
			continue;
		}
		const char = String.fromCodePoint(rest.codePointAt(0) ?? 0);
		const charColumns = charWidth(char.codePointAt(0) ?? 0);
		if (used + charColumns > width) {
			rows.push(row);
			row = "";
			used = 0;
		}
		row += char;
		used += charColumns;
		rest = rest.slice(char.length);
	}
	rows.push(row);
	return rows;
}

/**
 * Wraps one line (no newlines) at spaces to at most `width` columns; a word longer than the width is
 * cut. Escape sequences are kept and take no room.
 */
export function wordWrap(text: string, width: number): string[] {
	if (width <= 0 || visibleWidth(text) <= width) return [text];
	const rows: string[] = [];
	let row = "";
	for (const word of text.split(/(?<= )/)) {
		if (visibleWidth(row + word.trimEnd()) <= width) {
			row += word;
			continue;
		}
		if (row !== "") rows.push(row.trimEnd());
		const pieces = wrapToWidth(word, width);
		rows.push(...pieces.slice(0, -1));
		row = pieces.at(-1) ?? "";
	}
	if (row !== "") rows.push(row.trimEnd());
	return rows;
}
