import { TextMatcher } from "./match.js";
import { type TextFile, toOriginalOffset, withFileLineEnding } from "./text-file.js";

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
	/** How many edits matched only in the loose form (trailing whitespace, quotes, dashes, spaces). */
	fuzzyMatches: number;
}

const LOOSE_NOTE = "after normalising trailing whitespace, quotes, dashes and spaces";

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
		if (oldText.length === 0)
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
	for (let position = 1; position < located.length; position++) {
		const previous = located[position - 1];
		const current = located[position];
		if (current.start < previous.end) {
			const [first, second] = [previous.index, current.index].sort((left, right) => left - right);
			throw new Error(
				`edits[${first}] and edits[${second}] overlap in ${displayPath}; merge them into one edit or make each oldText cover separate text.`,
			);
		}
	}
	const changes = located.map(({ start, end, replacement }) => ({ start, end, replacement }));
	if (changes.every((change) => file.lf.slice(change.start, change.end) === change.replacement))
		throw new Error(`No changes made to ${displayPath}: the replacements equal the text already there.`);
	return { changes, fuzzyMatches };
}

/** The file's new text (without BOM): the original with the changes applied, line endings as the file has them. */
export function applyChanges(file: TextFile, changes: readonly TextChange[]): string {
	const pieces: string[] = [];
	let from = 0;
	for (const change of changes) {
		pieces.push(file.original.slice(from, toOriginalOffset(file, change.start)));
		pieces.push(withFileLineEnding(file, change.replacement));
		from = toOriginalOffset(file, change.end);
	}
	pieces.push(file.original.slice(from));
	return pieces.join("");
}
