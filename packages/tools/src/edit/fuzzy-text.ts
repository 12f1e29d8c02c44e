/**
 * The loose form of text the edit tool falls back to when `oldText` has no exact match: typographic
 * quotes become ASCII quotes, Unicode dashes become `-`, special spaces become a plain space, and
 * whitespace at the end of each line is dropped. Models often write these characters differently from
 * the file; none of the changes alters the meaning of code.
 */

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const APOSTROPHE = 0x27;
const QUOTE = 0x22;
const HYPHEN = 0x2d;

/** The ASCII stand-in for a character, or the character itself. Every replacement is one UTF-16 unit. */
function looseCharCode(code: number): number {
	if (code < 0xa0) return code;
	switch (code) {
		case 0x2018: // ‘
		case 0x2019: // ’
		case 0x201a: // ‚
		case 0x201b: // ‛
			return APOSTROPHE;
		case 0x201c: // “
		case 0x201d: // ”
		case 0x201e: // „
		case 0x201f: // ‟
			return QUOTE;
		case 0x2010: // hyphen
		case 0x2011: // non-breaking hyphen
		case 0x2012: // figure dash
		case 0x2013: // en dash
		case 0x2014: // em dash
		case 0x2015: // horizontal bar
		case 0x2212: // minus sign
			return HYPHEN;
		case 0x00a0: // no-break space
		case 0x1680: // ogham space mark
		case 0x202f: // narrow no-break space
		case 0x205f: // medium mathematical space
		case 0x3000: // ideographic space
			return SPACE;
		default:
			// En quad … hair space, thin spaces included.
			return code >= 0x2000 && code <= 0x200a ? SPACE : code;
	}
}

/**
 * Text in loose form, with `toSource[i]` = the position in the source of the character at `i`, and
 * `toSource[text.length]` = the source length. Dropped trailing whitespace belongs to no character, so
 * a span `[start, end)` of the loose text maps to `[toSource[start], toSource[end])`, which takes in the
 * dropped whitespace when the span ends at a line end.
 */
export interface LooseText {
	text: string;
	toSource: Int32Array;
}

/** Builds the loose form of `source` together with the map back to it. */
export function toLooseText(source: string): LooseText {
	const length = source.length;
	const codes = new Uint16Array(length);
	const toSource = new Int32Array(length + 1);
	let written = 0;
	// Spaces and tabs seen since the last other character: written only once something follows on the line.
	let pendingFrom = -1;
	for (let index = 0; index < length; index++) {
		const code = looseCharCode(source.charCodeAt(index));
		if (code === SPACE || code === TAB) {
			if (pendingFrom === -1) pendingFrom = index;
			continue;
		}
		if (pendingFrom !== -1) {
			if (code !== LINE_FEED) {
				for (let pending = pendingFrom; pending < index; pending++) {
					codes[written] = looseCharCode(source.charCodeAt(pending));
					toSource[written++] = pending;
				}
			}
			pendingFrom = -1;
		}
		codes[written] = code;
		toSource[written++] = index;
	}
	toSource[written] = length;
	return { text: fromCharCodes(codes, written), toSource: toSource.subarray(0, written + 1) };
}

/** `String.fromCharCode` over a large array, in chunks that stay within the engine's argument limit. */
function fromCharCodes(codes: Uint16Array, length: number): string {
	const CHUNK = 8192;
	const pieces: string[] = [];
	for (let start = 0; start < length; start += CHUNK)
		pieces.push(String.fromCharCode(...codes.subarray(start, Math.min(start + CHUNK, length))));
	return pieces.join("");
}

/** The loose form of `text` alone (for the `oldText` of an edit). */
export function looseForm(text: string): string {
	return toLooseText(text).text;
}
