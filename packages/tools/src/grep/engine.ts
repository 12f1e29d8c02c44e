import type { GitUserPlace } from "../search/git-excludes.js";
import type { GrepLine } from "./file-searcher.js";

/** The engines behind the grep tool. Both give the same output for the same input. */
export type GrepEngineName = "builtin" | "ripgrep";

/** What an engine is asked to find. */
export interface GrepEngineRequest {
	/** Absolute path of the folder (or, with `isFile`, the file) to search. */
	root: string;
	/** `root` is a single file: searched as given, whatever the ignore rules and the glob say. */
	isFile: boolean;
	pattern: string;
	literal: boolean;
	ignoreCase: boolean;
	/** Context lines around each match. */
	context: number;
	/** Matching lines wanted, counted in path-then-line order (the limit plus one, to tell whether it cut). */
	maxMatches: number;
	/** Gitignore-style glob selecting files, or undefined. */
	glob: string | undefined;
	signal: AbortSignal | undefined;
	/** Where the user's git settings are (`core.excludesFile`); without it only the repository's excludes apply. */
	gitUser?: GitUserPlace;
	/**
	 * Files of a folder search that must stay unread (see `GrepToolOptions.skipPaths`), by their path
	 * relative to `root`; for a single file, its name. Undefined: none.
	 */
	skip?: (relativePath: string) => boolean;
}

/** The lines found in one file. */
export interface GrepFileResult {
	/** Relative to the searched folder with `/` separators; for a single file, its name. */
	path: string;
	/** Matches and context lines, in line order. */
	lines: GrepLine[];
}

/**
 * What an engine found: files in plain string order of their paths, holding at least the first
 * `maxMatches` matches in that order (a file may hold more, which the formatter drops).
 */
export interface GrepEngineResult {
	files: GrepFileResult[];
	/**
	 * Files `skip` kept unread: every file of the search (after .gitignore and the glob) it covers, counted
	 * over the whole folder even when the matches wanted were found earlier, so both engines agree.
	 */
	skipped: number;
}

/** Plain string order, the order both engines report files in. */
export function comparePaths(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** How many of `lines` are matches. */
export function countMatches(lines: readonly GrepLine[]): number {
	let count = 0;
	for (const line of lines) if (line.match) count++;
	return count;
}
