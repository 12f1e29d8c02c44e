import { join } from "node:path";
import { readRepositoryExcludes } from "./git-excludes.js";
import type { GlobFilter } from "./glob-filter.js";
import { GITIGNORE, type IgnoreFileReader, type IgnoreRules } from "./ignore-rules.js";
import type { SearchEntry } from "./types.js";

/** The I/O a walk needs. */
export interface WalkOperations extends IgnoreFileReader {
	/** Lists a folder (links reported as links, not followed). May reject; such folders are skipped. */
	readdir(path: string): Promise<SearchEntry[]>;
}

export interface WalkOptions {
	operations: WalkOperations;
	/** Rules in force at the root (from `IgnoreRules.forRoot`); each folder's .gitignore adds to them. */
	rules: IgnoreRules;
	/** Selects files (and may leave out folders). Default: every file. */
	filter?: GlobFilter;
	/** Says whether a symbolic link points to a file, which is then yielded like one. Default: links are skipped. */
	isFileLink?: (absolutePath: string) => Promise<boolean>;
}

interface Frame {
	folder: string;
	rules: IgnoreRules;
	entries: SearchEntry[];
	next: number;
}

/** Sort key under which a depth-first walk visits paths in plain string order of their full paths. */
function sortKey(entry: SearchEntry): string {
	return entry.kind === "directory" ? `${entry.name}/` : entry.name;
}

function compareEntries(left: SearchEntry, right: SearchEntry): number {
	const a = sortKey(left);
	const b = sortKey(right);
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Files handed over at once: async iteration costs per step, so paths travel in batches. */
const BATCH_SIZE = 256;

/**
 * Yields the regular files under `root` (paths relative to it, `/` separators) in plain string order
 * of those paths, in batches: hidden files included, `.git` and everything the .gitignore files
 * ignore left out (ignored folders are not entered), links not followed (links to files are yielded
 * when `isFileLink` says so). Folders that cannot be
 * listed are skipped, except the root: its failure rejects.
 */
export async function* walkFiles(root: string, options: WalkOptions): AsyncGenerator<string[]> {
	const { operations, filter } = options;
	const stack: Frame[] = [await openFolder(operations, root, "", options.rules)];
	let batch: string[] = [];
	for (let frame = stack[stack.length - 1]; frame !== undefined; frame = stack[stack.length - 1]) {
		const entry = frame.entries[frame.next];
		if (entry === undefined) {
			stack.pop();
			continue;
		}
		frame.next++;
		if (entry.name === ".git") continue;
		const path = frame.folder === "" ? entry.name : `${frame.folder}/${entry.name}`;
		if (entry.kind === "directory") {
			if (frame.rules.ignores(path, true, entry.name) || filter?.excludesFolder(path)) continue;
			try {
				stack.push(await openFolder(operations, join(root, path), path, frame.rules));
			} catch {
				// Unreadable or vanished folder: skip it, as rg does.
			}
		} else if (entry.kind === "file" || (entry.kind === "symlink" && (await options.isFileLink?.(join(root, path))))) {
			if (frame.rules.ignores(path, false, entry.name)) continue;
			if (filter && !filter.includes(path)) continue;
			batch.push(path);
			if (batch.length >= BATCH_SIZE) {
				yield batch;
				batch = [];
			}
		}
	}
	if (batch.length > 0) yield batch;
}

async function openFolder(
	operations: WalkOperations,
	absolute: string,
	folder: string,
	outer: IgnoreRules,
): Promise<Frame> {
	const entries = await operations.readdir(absolute);
	let hasGit = false;
	let hasGitignore = false;
	for (const entry of entries) {
		if (entry.name === ".git") hasGit = true;
		else if (entry.name === GITIGNORE && entry.kind !== "directory") hasGitignore = true;
	}
	const gitignore = hasGitignore ? await operations.readText(join(absolute, GITIGNORE)) : undefined;
	// A nested repository: its own info/exclude and the user's excludes replace the outer rules.
	const excludes =
		hasGit && folder !== "" ? await readRepositoryExcludes(absolute, operations, outer.gitUser) : undefined;
	const rules = outer.enter(folder, { hasGit, gitignore, excludes });
	entries.sort(compareEntries);
	return { folder, rules, entries, next: 0 };
}
