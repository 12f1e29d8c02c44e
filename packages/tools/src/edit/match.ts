import { type CompatibleText, compatibleForm, toCompatibleText, toSourcePosition } from "./compatible-text.js";
import { type LooseText, looseForm, toLooseText, toSourceOffset } from "./fuzzy-text.js";

/** Where one `oldText` is in the text, or why it cannot be used. Positions are in the searched text. */
export type MatchResult =
	| { found: "once"; start: number; end: number; fuzzy: boolean }
	| { found: "none" }
	| { found: "many"; count: number; fuzzy: boolean };

function countOccurrences(text: string, needle: string, from: number): number {
	let count = 0;
	for (let at = text.indexOf(needle, from); at !== -1; at = text.indexOf(needle, at + 1)) count++;
	return count;
}

/**
 * Finds the unique occurrence of each `oldText` in one text: exactly first (one scan of the text per
 * needle), on a miss in the loose form of both (see fuzzy-text.ts), and on a second miss in the Unicode
 * compatibility form of the loose forms (see compatible-text.ts). Each form is built once and shared by
 * every needle that needs it.
 */
export class TextMatcher {
	private loose: LooseText | undefined;
	private compatible: CompatibleText | undefined;

	constructor(private readonly text: string) {}

	match(needle: string): MatchResult {
		const exact = this.text.indexOf(needle);
		if (exact !== -1) {
			const second = this.text.indexOf(needle, exact + 1);
			if (second === -1) return { found: "once", start: exact, end: exact + needle.length, fuzzy: false };
			return { found: "many", count: 2 + countOccurrences(this.text, needle, second + 1), fuzzy: false };
		}
		return this.matchLoose(needle);
	}

	private matchLoose(needle: string): MatchResult {
		const looseNeedle = looseForm(needle);
		if (looseNeedle.length === 0) return { found: "none" };
		this.loose ??= toLooseText(this.text);
		const { text } = this.loose;
		const at = text.indexOf(looseNeedle);
		if (at === -1) return this.matchCompatible(looseNeedle);
		const second = text.indexOf(looseNeedle, at + 1);
		if (second !== -1)
			return { found: "many", count: 2 + countOccurrences(text, looseNeedle, second + 1), fuzzy: true };
		const start = toSourceOffset(this.loose, at);
		return { found: "once", start, end: toSourceOffset(this.loose, at + looseNeedle.length), fuzzy: true };
	}
	/** The last tier: both loose forms in NFKC, a match kept only when its ends map back to the loose text. */
	private matchCompatible(looseNeedle: string): MatchResult {
		const needle = compatibleForm(looseNeedle);
		const loose = this.loose as LooseText;
		this.compatible ??= toCompatibleText(loose.text);
		const { text, rewrites } = this.compatible;
		if (rewrites.length === 0 && needle === looseNeedle) return { found: "none" };
		const at = text.indexOf(needle);
		if (at === -1) return { found: "none" };
		const second = text.indexOf(needle, at + 1);
		if (second !== -1) return { found: "many", count: 2 + countOccurrences(text, needle, second + 1), fuzzy: true };
		const looseStart = toSourcePosition(this.compatible, at);
		const looseEnd = toSourcePosition(this.compatible, at + needle.length);
		if (looseStart === undefined || looseEnd === undefined) return { found: "none" };
		return {
			found: "once",
			start: toSourceOffset(loose, looseStart),
			end: toSourceOffset(loose, looseEnd),
			fuzzy: true,
		};
	}
}
