import { GitignoreFile } from "./gitignore-file.js";

/** Most alternatives one glob may expand to; more is almost surely a mistake. */
const MAX_EXPANSIONS = 256;

/** Which files a grep `glob` selects, with ripgrep's `--glob` semantics. */
export interface GlobFilter {
	/** Whether the file at `relativePath` (relative to the search folder, `/` separators) is searched. */
	includes(relativePath: string): boolean;
	/** Whether a whole folder is left out (only `!`-globs leave folders out). */
	excludesFolder(relativePath: string): boolean;
}

/**
 * Expands `{a,b}` alternatives (nested ones too), which .gitignore syntax lacks and ripgrep's globs have.
 * A backslash escapes the next character. Throws when the expansion grows past `MAX_EXPANSIONS`.
 */
export function expandBraces(glob: string): string[] {
	const open = findUnescaped(glob, "{", 0);
	if (open < 0) return [glob];
	let depth = 0;
	const commas: number[] = [];
	for (let index = open; index < glob.length; index++) {
		const character = glob[index];
		if (character === "\\") {
			index++;
		} else if (character === "{") {
			depth++;
		} else if (character === "}") {
			depth--;
			if (depth === 0) {
				if (commas.length === 0) break;
				const head = glob.slice(0, open);
				const tail = expandBraces(glob.slice(index + 1));
				const results: string[] = [];
				// Each alternative lies between one bound (the `{` or a comma) and the next (a comma or the `}`).
				let from = open;
				for (const to of [...commas, index]) {
					for (const middle of expandBraces(glob.slice(from + 1, to))) {
						for (const end of tail) {
							results.push(head + middle + end);
							if (results.length > MAX_EXPANSIONS)
								throw new Error(`The glob ${glob} expands to more than ${MAX_EXPANSIONS} alternatives; simplify it.`);
						}
					}
					from = to;
				}
				return results;
			}
		} else if (character === "," && depth === 1) {
			commas.push(index);
		}
	}
	// No matching close or no comma: the brace is literal; expand what follows it.
	return expandBraces(glob.slice(open + 1)).map((rest) => `${glob.slice(0, open + 1)}${rest}`);
}

function findUnescaped(text: string, character: string, from: number): number {
	for (let index = from; index < text.length; index++) {
		if (text[index] === "\\") index++;
		else if (text[index] === character) return index;
	}
	return -1;
}

function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * A filter for a gitignore-style glob, as ripgrep's `--glob` reads it: a glob without `/` matches the
 * file name at any depth (`*.ts`), one with `/` is relative to the search folder (`src/**\/*.ts`),
 * `{a,b}` alternatives are expanded, and a leading `!` excludes what matches (folders included)
 * instead of selecting it. Matching is case-sensitive.
 */
export function createGlobFilter(glob: string): GlobFilter {
	const exclude = glob.startsWith("!");
	const patterns = expandBraces(exclude ? glob.slice(1) : glob).join("\n");
	if (exclude) {
		const matcher = new GitignoreFile(patterns);
		return {
			includes: (relativePath) => matcher.test(relativePath, nameOf(relativePath), false) !== true,
			excludesFolder: (relativePath) => matcher.test(relativePath, nameOf(relativePath), true) === true,
		};
	}
	// `!*/` re-includes every folder in the full-path test, so a file is selected only by the glob
	// matching the file itself, never because one of its folders matched (the `ignore` package otherwise
	// carries a folder's match down to everything in it).
	const matcher = new GitignoreFile(patterns, ["!*/"]);
	return {
		includes: (relativePath) => matcher.test(relativePath, nameOf(relativePath), false) === true,
		excludesFolder: () => false,
	};
}
