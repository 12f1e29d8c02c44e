/** The edit distance of two short names, a swap of neighbours counting as one edit. Case counts. */
export function editDistance(a: string, b: string): number {
	const rows = Array.from({ length: a.length + 1 }, (_, i) =>
		Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
	);
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const row = rows[i] as number[];
			const above = rows[i - 1] as number[];
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
			}
		}
	}
	return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The known name closest to `name` (compared without regard to case), when it is at most `maxEdits`
 * edits away (a function of the candidate: short names allow fewer), else undefined. Ties go to the
 * first candidate.
 */
export function closestName(
	name: string,
	known: readonly string[],
	maxEdits: number | ((candidate: string) => number) = 2,
): string | undefined {
	let best: { name: string; score: number } | undefined;
	const lower = name.toLowerCase();
	for (const candidate of known) {
		const score = editDistance(lower, candidate.toLowerCase());
		const limit = typeof maxEdits === "function" ? maxEdits(candidate) : maxEdits;
		if (score <= limit && (best === undefined || score < best.score)) best = { name: candidate, score };
	}
	return best?.name;
}

/** ` (did you mean X?)`, or nothing when no known name is close. */
export function didYouMean(
	name: string,
	known: readonly string[],
	maxEdits?: number | ((candidate: string) => number),
): string {
	const closest = closestName(name, known, maxEdits);
	return closest === undefined ? "" : ` (did you mean ${closest}?)`;
}
