/**
 * Finding a hunk's lines in a file the way Codex does: the first place, from a starting line on, where
 * the lines are equal; failing that, equal ignoring trailing whitespace; then ignoring whitespace at both
 * ends; then also with typographic dashes, quotes and special spaces read as their ASCII forms. Models
 * often write those differently from the file; none of the forms changes what code means.
 */

/** The matching tiers, strictest first; `exact` is tried first, so a looser one is used only on a miss. */
const TIERS: readonly ((line: string) => string)[] = [
	(line) => line,
	(line) => line.trimEnd(),
	(line) => line.trim(),
	(line) => normalisePunctuation(line.trim()),
];

/** How strict the tier was that found a match: 0 exact … 3 punctuation normalised. */
export type MatchTier = 0 | 1 | 2 | 3;

const PUNCTUATION = /[\u2010-\u2015\u2212\u2018-\u201b\u201c-\u201f\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;

/** Dashes and the minus sign become `-`, curly quotes straight ones, special spaces a plain space. */
function normalisePunctuation(line: string): string {
	return line.replace(PUNCTUATION, (character) => {
		const code = character.charCodeAt(0);
		if ((code >= 0x2010 && code <= 0x2015) || code === 0x2212) return "-";
		if (code >= 0x2018 && code <= 0x201b) return "'";
		if (code >= 0x201c && code <= 0x201f) return '"';
		return " ";
	});
}

/**
 * The index of the first place at or after `start` where `pattern` occurs in `lines`, and the tier that
 * matched. With `atEnd` the end of the file is tried first (a hunk closed by `*** End of File`), then the
 * rest from `start` on. An empty pattern matches at `start`.
 */
export function seekLines(
	lines: readonly string[],
	pattern: readonly string[],
	start: number,
	atEnd = false,
): { index: number; tier: MatchTier } | undefined {
	if (pattern.length === 0) return { index: start, tier: 0 };
	const last = lines.length - pattern.length;
	if (last < 0) return undefined;
	const forms = TIERS.map((form) => ({ form, wanted: pattern.map(form) }));
	// `at` never passes `last`, so every line read is in the file.
	const formsMatch = (form: (line: string) => string, wanted: readonly string[], at: number) =>
		wanted.every((line, offset) => {
			const candidate = lines[at + offset];
			return candidate !== undefined && form(candidate) === line;
		});
	const matchAt = (at: number) => {
		const tier = forms.findIndex(({ form, wanted }) => formsMatch(form, wanted, at));
		return tier === -1 ? undefined : { index: at, tier: tier as MatchTier };
	};
	if (atEnd && last >= start) {
		const found = matchAt(last);
		if (found) return found;
	}
	for (const [tier, { form, wanted }] of forms.entries()) {
		for (let at = start; at <= last; at++) {
			if (formsMatch(form, wanted, at)) return { index: at, tier: tier as MatchTier };
		}
	}
	return undefined;
}
