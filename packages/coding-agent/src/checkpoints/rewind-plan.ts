import type { FileChange } from "./shadow-repository.js";

/** What a code rewind does to each file. */
export interface RewindPlan {
	/** Files to write back as they were at the checkpoint. */
	restore: string[];
	/** Files the session created since; deleted. */
	remove: string[];
	/** Files the session changed that the user changed too: left as they are. */
	conflicts: string[];
}

/**
 * Decides a code rewind. `toolFiles`: what the session's own work changed since the checkpoint;
 * `userFiles`: what changed between the session's stretches of work (the user's edits); `sinceTarget`: how
 * the folder differs now from the checkpoint. Only the session's files are touched, never one the user
 * changed in between.
 */
export function planRewind(
	toolFiles: ReadonlySet<string>,
	userFiles: ReadonlySet<string>,
	sinceTarget: readonly FileChange[],
): RewindPlan {
	const conflicts: string[] = [];
	const restore: string[] = [];
	const remove: string[] = [];
	for (const change of sinceTarget) {
		if (!toolFiles.has(change.path)) continue;
		// Already as it was at the checkpoint when it is not listed here: nothing to do, nothing to report.
		if (userFiles.has(change.path)) conflicts.push(change.path);
		else if (change.status === "A") remove.push(change.path);
		else restore.push(change.path);
	}
	return { restore: restore.sort(), remove: remove.sort(), conflicts: conflicts.sort() };
}
