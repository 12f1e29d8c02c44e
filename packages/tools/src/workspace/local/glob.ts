import { type Dirent, readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { throwIfAborted } from "../../abort.js";
import { errorCode } from "../../error-text.js";
import { compileFindPattern, type FindPattern } from "../../search/find-pattern.js";
import { type GitUserPlace, gitUserOf, readRepositoryExcludesSync } from "../../search/git-excludes.js";
import { ALWAYS_SKIPPED_FOLDERS } from "../../search/glob-walk.js";
import { GITIGNORE, IgnoreRules } from "../../search/ignore-rules.js";
import { localIgnoreFileReaderSync } from "./file-system.js";
import { localHome } from "./paths.js";

/** How long the walk may hold the event loop before letting timers, I/O and aborts run. */
const SLICE_MS = 12;

/** Listing failures that skip the folder (as rg and fd do) instead of failing the search. */
const SKIPPED_CODES = new Set(["EACCES", "EPERM", "ENOENT", "ENOTDIR"]);

const reader = {
	readText: async (path: string) => localIgnoreFileReaderSync.readText(path),
	exists: async (path: string) => localIgnoreFileReaderSync.exists(path),
};

/** A folder waiting to be listed, with the rules in force in the folder holding it. */
interface PendingFolder {
	folder: string;
	outer: IgnoreRules;
}

/**
 * The local `find` glob: walks `cwd` and returns the regular files and links to files whose path
 * matches `pattern` as fast-glob reads it (`compileFindPattern`), hidden files included. `.git`,
 * `node_modules` and whatever the .gitignore files ignore are left out, and ignored folders, linked
 * folders and folders no match can lie in are never entered. Folders are listed with `readdirSync`, and
 * the walk gives the event loop a turn once it held it for a time slice: on the benchmark tree, 16
 * parallel `readdir` calls through the thread pool took about 1.6 times the CPU and were no faster.
 * Paths are relative to `cwd` with `/`, unsorted. Rejects with `Operation aborted` when `signal` fires.
 */
export async function localGlob(
	pattern: string,
	cwd: string,
	signal: AbortSignal | undefined,
	gitUser: GitUserPlace = gitUserOf({ home: localHome(), isLocal: true }),
): Promise<string[]> {
	throwIfAborted(signal);
	const compiled = compileFindPattern(pattern);
	const ancestors = await IgnoreRules.forRoot(cwd, reader, gitUser);
	const files: string[] = [];
	const queue: PendingFolder[] = [{ folder: "", outer: ancestors }];
	let sliceStart = performance.now();
	while (queue.length > 0) {
		if (performance.now() - sliceStart >= SLICE_MS) {
			await nextTurn();
			sliceStart = performance.now();
		}
		throwIfAborted(signal);
		const pending = queue.pop() as PendingFolder;
		const absolute = pending.folder === "" ? cwd : `${cwdPrefix(cwd)}${pending.folder}`;
		let dirents: Dirent[];
		try {
			dirents = readdirSync(absolute, { withFileTypes: true });
		} catch (error) {
			if (SKIPPED_CODES.has(errorCode(error) ?? "")) continue;
			throw error;
		}
		takeListing(compiled, absolute, pending, dirents, files, queue);
	}
	return files;
}

function cwdPrefix(cwd: string): string {
	return cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;
}

/** Sorts one folder's entries: matching files into `files`, folders worth entering into `queue`. */
function takeListing(
	compiled: FindPattern,
	absolute: string,
	{ folder, outer }: PendingFolder,
	dirents: Dirent[],
	files: string[],
	queue: PendingFolder[],
): void {
	let hasGit = false;
	let hasGitignore = false;
	for (const dirent of dirents) {
		if (dirent.name === ".git") hasGit = true;
		else if (dirent.name === GITIGNORE && !dirent.isDirectory()) hasGitignore = true;
	}
	const gitignore = hasGitignore ? localIgnoreFileReaderSync.readText(join(absolute, GITIGNORE)) : undefined;
	const excludes =
		hasGit && folder !== ""
			? readRepositoryExcludesSync(absolute, localIgnoreFileReaderSync, outer.gitUser)
			: undefined;
	const rules = outer.enter(folder, { hasGit, gitignore, excludes });
	for (const dirent of dirents) {
		const name = dirent.name;
		const path = folder === "" ? name : `${folder}/${name}`;
		if (dirent.isDirectory()) {
			if (ALWAYS_SKIPPED_FOLDERS.includes(name) || rules.ignores(path, true, name)) continue;
			if (compiled.mayMatchBelow(path)) queue.push({ folder: path, outer: rules });
		} else if (name === ".git") {
			// A linked worktree's or a submodule's `.git` file: git's own, never listed (the walk skips it too).
		} else if (dirent.isFile()) {
			if (compiled.matches(path, name) && !rules.ignores(path, false, name)) files.push(path);
		} else if (dirent.isSymbolicLink() && !ALWAYS_SKIPPED_FOLDERS.includes(name)) {
			// A link to a file is listed as that file; a link to a folder is not entered.
			if (compiled.matches(path, name) && !rules.ignores(path, false, name) && isFileTarget(join(absolute, name)))
				files.push(path);
		}
	}
}

function isFileTarget(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
