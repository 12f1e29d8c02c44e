import { throwIfAborted } from "../abort.js";
import type { WorkspaceFileSystem } from "../workspace/types.js";
import { compileFindPattern } from "./find-pattern.js";
import type { GitUserPlace } from "./git-excludes.js";
import type { GlobFilter } from "./glob-filter.js";
import { IgnoreRules } from "./ignore-rules.js";
import { walkFiles } from "./walk.js";
import { searchOperationsOn } from "./workspace-search.js";

/** Folders `find` never enters, whatever the .gitignore files say. */
export const ALWAYS_SKIPPED_FOLDERS: readonly string[] = [".git", "node_modules"];

/**
 * `find`'s glob on any workspace file system (used when the workspace has no `glob` fast path): the
 * grep walker over `cwd` with the .gitignore rules, `.git` and `node_modules` skipped, hidden files and
 * links to files included, and the pattern read as the local glob reads it (`compileFindPattern`: as
 * fast-glob reads it). Relative paths with `/`, in path order. Rejects with `Operation aborted`.
 */
export async function walkGlob(
	fs: WorkspaceFileSystem,
	pattern: string,
	cwd: string,
	signal: AbortSignal | undefined,
	gitUser?: GitUserPlace,
): Promise<string[]> {
	throwIfAborted(signal);
	const operations = searchOperationsOn(fs);
	const rules = await IgnoreRules.forRoot(cwd, operations, gitUser);
	const compiled = compileFindPattern(pattern);
	const filter: GlobFilter = {
		includes: (path) => compiled.matches(path, path.slice(path.lastIndexOf("/") + 1)),
		excludesFolder: (path) =>
			ALWAYS_SKIPPED_FOLDERS.includes(path.slice(path.lastIndexOf("/") + 1)) || !compiled.mayMatchBelow(path),
	};
	const isFileLink = async (path: string) => (await fs.stat(path).catch(() => undefined))?.kind === "file";
	const files: string[] = [];
	for await (const batch of walkFiles(cwd, { operations, rules, filter, isFileLink })) {
		throwIfAborted(signal);
		files.push(...batch);
	}
	throwIfAborted(signal);
	return files;
}
