import { TextMatcher } from "./match.js";
import { BOM_BYTES, type TextFile, toOriginalOffset, withFileLineEnding } from "./text-file.js";

/** One requested replacement, as the model sent it. */
export interface EditInput {
	oldText: string;
	newText: string;
}

/** One replacement in a file's LF text: `[start, end)` becomes `replacement` (LF line breaks). */
export interface TextChange {
	start: number;
	end: number;
	replacement: string;
}

/** The replacements of one edit call, sorted by position and known not to overlap. */
export interface EditPlan {
	changes: TextChange[];
	/** How many edits matched only in a loose form (trailing whitespace, quotes, dashes, spaces, Unicode forms). */
	fuzzyMatches: number;
}

const LOOSE_NOTE = "after normalising trailing whitespace, quotes, dashes, spaces and Unicode forms";

/** A UTF-16 surrogate without its partner: such an oldText could match inside a character. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function toLf(text: string): string {
	return text.includes("\r\n") ? text.replaceAll("\r\n", "\n") : text;
}

/**
 * Checks the edits on their own, before the file is read: at least one edit, no empty `oldText`, no
 * edit that would change nothing. Returns them with LF line breaks. Throws an Error naming each bad edit.
 */
export function normalizeEdits(edits: readonly EditInput[]): EditInput[] {
	if (edits.length === 0) throw new Error("No edits given: `edits` must hold at least one { oldText, newText } pair.");
	const problems: string[] = [];
	const normalized = edits.map((edit, index) => {
		const oldText = toLf(edit.oldText);
		const newText = toLf(edit.newText);
		if (UNPAIRED_SURROGATE.test(oldText))
			problems.push(`edits[${index}].oldText contains half of a surrogate pair; send whole characters.`);
		else if (oldText.length === 0)
			problems.push(
				`edits[${index}].oldText is empty; give the exact text to replace (use the write tool to create or replace a whole file).`,
			);
		else if (oldText === newText) problems.push(`edits[${index}] changes nothing: newText is the same as oldText.`);
		return { oldText, newText };
	});
	if (problems.length > 0) throw new Error(problems.join("\n"));
	return normalized;
}

/**
 * Finds every edit in the file's original text (positions never shift between edits) and checks that
 * each matches exactly once, that no two overlap and that together they change something. Throws an
 * Error that names the failing edits and says how to fix them.
 */
export function planEdits(file: TextFile, edits: readonly EditInput[], displayPath: string): EditPlan {
	const matcher = new TextMatcher(file.lf);
	const located: (TextChange & { index: number })[] = [];
	const problems: string[] = [];
	let fuzzyMatches = 0;
	edits.forEach((edit, index) => {
		const result = matcher.match(edit.oldText);
		if (result.found === "once") {
			if (result.fuzzy) fuzzyMatches++;
			located.push({ index, start: result.start, end: result.end, replacement: edit.newText });
		} else if (result.found === "none") {
			problems.push(
				`edits[${index}].oldText was not found in ${displayPath} (not even ${LOOSE_NOTE}). Read the file again and copy the text exactly as it is now, indentation included.`,
			);
		} else {
			const how = result.fuzzy ? ` (${LOOSE_NOTE})` : "";
			problems.push(
				`edits[${index}].oldText was found ${result.count} times in ${displayPath}${how}; add more surrounding context to make it unique.`,
			);
		}
	});
	if (problems.length > 0) throw new Error(problems.join("\n"));

	located.sort((left, right) => left.start - right.start);
	let previous: (typeof located)[number] | undefined;
	for (const current of located) {
		if (previous !== undefined && current.start < previous.end) {
			const [first, second] = [previous.index, current.index].sort((left, right) => left - right);
			throw new Error(
				`edits[${first}] and edits[${second}] overlap in ${displayPath}; merge them into one edit or make each oldText cover separate text.`,
			);
		}
		previous = current;
	}
	const changes = located.map(({ start, end, replacement }) => ({ start, end, replacement }));
	if (changes.every((change) => file.lf.slice(change.start, change.end) === change.replacement))
		throw new Error(`No changes made to ${displayPath}: the replacements equal the text already there.`);
	return { changes, fuzzyMatches };
}

/**
 * The file's new bytes: the changes applied, line endings as the file has them. Everything between
 * changes is copied from the bytes read (BOM included), never decoded and re-encoded, so untouched text
 * stays byte-for-byte the same and a large file costs one copy.
 */
export function applyChanges(file: TextFile, changes: readonly TextChange[]): Buffer {
	const { bytes, original } = file;
	const bomBytes = file.bom ? BOM_BYTES : 0;
	// Valid UTF-8 has as many bytes as UTF-16 units only when every character is ASCII.
	const ascii = bytes.length - bomBytes === original.length;
	const pieces: Buffer[] = [];
	// The first copy starts at byte 0 so that it carries the BOM.
	let copyFrom = 0;
	let fromChar = 0;
	let fromCharByte = bomBytes;
	for (const change of changes) {
		const start = toOriginalOffset(file, change.start);
		const end = toOriginalOffset(file, change.end);
		const startByte = ascii ? bomBytes + start : fromCharByte + utf8Length(original, fromChar, start);
		const endByte = ascii ? bomBytes + end : startByte + utf8Length(original, start, end);
		pieces.push(bytes.subarray(copyFrom, startByte), Buffer.from(withFileLineEnding(file, change.replacement), "utf8"));
		copyFrom = endByte;
		fromChar = end;
		fromCharByte = endByte;
	}
	pieces.push(bytes.subarray(copyFrom));
	return Buffer.concat(pieces);
}

function utf8Length(text: string, from: number, to: number): number {
	return Buffer.byteLength(text.slice(from, to), "utf8");
}
