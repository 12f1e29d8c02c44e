import { countLeading } from "./sorted-prefix.js";

/**
 * The Unicode compatibility form the edit tool tries last, on text already in loose form: each
 * character with its combining marks is put in NFKC, so full-width letters, digits and punctuation
 * (`Ａ１，（`) become their ASCII forms and a decomposed accent (`e` + U+0301) matches the composed one
 * (`é`). Models type the plain forms; CJK text and files from macOS often hold the others.
 */

/** A base character followed by combining marks, or any single non-ASCII character (a code point). */
const CLUSTER = /[\s\S]\p{M}+|\P{ASCII}/gu;

/**
 * One stretch the compatible form rewrote: `at`/`length` in the compatible text, `sourceAt`/`sourceLength`
 * in the text it was built from. Everything between two groups is copied unchanged.
 */
interface Rewrite {
	at: number;
	length: number;
	sourceAt: number;
	sourceLength: number;
}

/** Text in compatible form and the way back to the text it was built from. */
export interface CompatibleText {
	text: string;
	rewrites: Rewrite[];
}

/** Builds the compatible form of `source`; stretches NFKC leaves alone are not recorded. */
export function toCompatibleText(source: string): CompatibleText {
	const rewrites: Rewrite[] = [];
	let shift = 0;
	const text = source.replace(CLUSTER, (cluster: string, offset: number) => {
		const normal = cluster.normalize("NFKC");
		if (normal === cluster) return cluster;
		rewrites.push({ at: offset + shift, length: normal.length, sourceAt: offset, sourceLength: cluster.length });
		shift += normal.length - cluster.length;
		return normal;
	});
	return { text, rewrites };
}

/** The compatible form of `text` alone (for the `oldText` of an edit). */
export function compatibleForm(text: string): string {
	return toCompatibleText(text).text;
}

/**
 * Maps a position in the compatible text back to its source, or `undefined` when it falls inside a
 * rewritten stretch (a match that starts or ends in the middle of `ﬁ` → `fi` has no source span).
 */
export function toSourcePosition(compatible: CompatibleText, offset: number): number | undefined {
	const { rewrites } = compatible;
	// The last rewrite starting at or before `offset` (`at` ascends); none before it leaves it as it is.
	const rewrite = rewrites[countLeading(rewrites, (candidate) => candidate.at <= offset) - 1];
	if (rewrite === undefined) return offset;
	if (offset === rewrite.at) return rewrite.sourceAt;
	const after = rewrite.at + rewrite.length;
	if (offset < after) return undefined;
	return rewrite.sourceAt + rewrite.sourceLength + (offset - after);
}
