import type { posix } from "node:path";
import { errorText } from "@gantry/ai";
import { changedMeanwhileError, type FileVersion, versionsDiffer } from "../file-versions.js";
import { isPermissionDenied, permissionDeniedError } from "../permission-denied.js";
import type { WorkspaceFileSystem, WorkspaceStat } from "../workspace/types.js";

/** The part of a stat that tells a later change (what `file-versions` compares). */
export function versionOf(stats: WorkspaceStat): FileVersion {
	return stats.mtimeMs === undefined ? { size: stats.size } : { size: stats.size, mtimeMs: stats.mtimeMs };
}

/** One file's end state after a patch: new bytes, or gone. `before` is what it held (undefined: nothing). */
export interface FileOutcome {
	/** Absolute path on the workspace. */
	path: string;
	/** The path as the patch names it, for messages. */
	display: string;
	before: Buffer | undefined;
	/** Undefined: the file is deleted. */
	after: Buffer | undefined;
	/** Its size and modification time when the patch read it (undefined: it did not exist). */
	version: FileVersion | undefined;
}

/** A step already taken, and how to take it back. */
interface Done {
	display: string;
	undo: () => Promise<void>;
}

type PathSyntax = Pick<typeof posix, "dirname">;

/** The top-most folder of `path`'s missing parents, or undefined when its folder exists. */
async function firstMissingFolder(
	fs: WorkspaceFileSystem,
	path: string,
	syntax: PathSyntax,
): Promise<string | undefined> {
	let missing: string | undefined;
	for (let folder = syntax.dirname(path); ; folder = syntax.dirname(folder)) {
		if ((await fs.stat(folder)) !== undefined) return missing;
		missing = folder;
		if (syntax.dirname(folder) === folder) return missing;
	}
}

/** Removes a folder this patch created, only while it is still empty (someone may have used it since). */
async function removeIfEmpty(fs: WorkspaceFileSystem, folder: string, syntax: PathSyntax, top: string): Promise<void> {
	for (let current = folder; ; current = syntax.dirname(current)) {
		const entries = await fs.readdir(current).catch(() => undefined);
		if (entries === undefined || entries.length > 0) return;
		await fs.remove(current);
		if (current === top) return;
	}
}

function failureText(error: unknown, display: string): string {
	return isPermissionDenied(error) ? permissionDeniedError(display).message : errorText(error);
}

/**
 * Writes a patch's outcome so that it happens whole or not at all: files that may not be written are
 * found before anything changes; then new and changed files are written (atomically, keeping modes and
 * owners) and deleted files removed, in that order. If a step fails (a full disk, a folder that refuses),
 * every earlier step is undone: changed files get their old bytes back, created files and folders are
 * removed, deleted files are written again.
 *
 * @throws Error naming the file that failed and why, and saying whether the undo put everything back.
 */
export async function commitOutcomes(
	fs: WorkspaceFileSystem,
	outcomes: readonly FileOutcome[],
	syntax: PathSyntax,
): Promise<void> {
	for (const outcome of outcomes) {
		// A file written meanwhile (an append while the patch was worked out) would lose that write.
		const now = await fs.stat(outcome.path).catch(() => undefined);
		const changed =
			outcome.version === undefined
				? now !== undefined
				: now === undefined || versionsDiffer(outcome.version, versionOf(now));
		if (changed) throw changedMeanwhileError(outcome.display);
		if (outcome.before === undefined) continue;
		try {
			await fs.access(outcome.path, "write");
		} catch (error) {
			throw new Error(`${failureText(error, outcome.display)} Nothing was written.`);
		}
	}
	const writes = outcomes.filter((outcome) => outcome.after !== undefined);
	const deletes = outcomes.filter((outcome) => outcome.after === undefined && outcome.before !== undefined);
	const done: Done[] = [];
	let current: FileOutcome | undefined;
	try {
		for (const outcome of writes) {
			current = outcome;
			done.push(await write(fs, outcome, syntax));
		}
		for (const outcome of deletes) {
			current = outcome;
			await fs.unlink(outcome.path);
			const { path, before } = outcome;
			done.push({
				display: outcome.display,
				undo: async () => {
					await fs.mkdir(syntax.dirname(path));
					await fs.writeFileAtomic(path, before as Buffer);
				},
			});
		}
	} catch (error) {
		const display = current?.display ?? "a file";
		const reason = failureText(error, display);
		const unrestored: string[] = [];
		for (const step of done.reverse()) {
			try {
				await step.undo();
			} catch (undoError) {
				unrestored.push(`${step.display} (${errorText(undoError)})`);
			}
		}
		const undone =
			unrestored.length === 0
				? done.length === 0
					? "nothing had been written yet"
					: `the ${done.length} file${done.length === 1 ? "" : "s"} already changed ${done.length === 1 ? "was" : "were"} put back as they were`
				: `these could not be put back and need a look: ${unrestored.join(", ")}`;
		throw new Error(`Could not apply the patch: writing ${display} failed (${reason}); ${undone}.`);
	}
}

async function write(fs: WorkspaceFileSystem, outcome: FileOutcome, syntax: PathSyntax): Promise<Done> {
	const { path, before, after } = outcome;
	const createdFolder = before === undefined ? await firstMissingFolder(fs, path, syntax) : undefined;
	if (createdFolder !== undefined) await fs.mkdir(syntax.dirname(path));
	try {
		await fs.writeFileAtomic(path, after as Buffer);
	} catch (error) {
		if (createdFolder !== undefined) await removeIfEmpty(fs, syntax.dirname(path), syntax, createdFolder);
		throw error;
	}
	return {
		display: outcome.display,
		undo: async () => {
			if (before !== undefined) return fs.writeFileAtomic(path, before);
			await fs.unlink(path);
			if (createdFolder !== undefined) await removeIfEmpty(fs, syntax.dirname(path), syntax, createdFolder);
		},
	};
}
