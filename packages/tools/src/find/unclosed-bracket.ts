const CLOSERS: Record<string, string> = { "[": "]", "{": "}", "(": ")" };

/**
 * The first bracket of a glob that is never closed (`[`, `{` or `(`), or undefined. Such a bracket is
 * matched as a plain character, so a pattern like `src/[` finds nothing without saying why; `find`
 * names it when nothing matched. A backslash escapes the next character, and inside `[...]` only `]`
 * (not as the first character) ends the class.
 *
 * @example
 * unclosedBracket("src/*.{ts,js"); // "{"
 */
export function unclosedBracket(pattern: string): string | undefined {
	const open: string[] = [];
	for (let index = 0; index < pattern.length; index++) {
		const char = pattern[index];
		if (char === "\\") {
			index++;
			continue;
		}
		if (char === "[") {
			const end = classEnd(pattern, index);
			if (end < 0) return "[";
			index = end;
			continue;
		}
		if (char === "{" || char === "(") open.push(char);
		else if ((char === "}" || char === ")") && CLOSERS[open.at(-1) ?? ""] === char) open.pop();
	}
	return open[0];
}

/** Where the class opened at `start` ends (its `]`), or -1. A `]` right after `[` or `[!` belongs to it. */
function classEnd(pattern: string, start: number): number {
	let index = start + 1;
	if (pattern[index] === "!" || pattern[index] === "^") index++;
	if (pattern[index] === "]") index++;
	for (; index < pattern.length; index++) {
		if (pattern[index] === "\\") index++;
		else if (pattern[index] === "]") return index;
	}
	return -1;
}
