/** What a file looked like when a tool last read or wrote it: enough to tell that someone changed it since. */
export interface FileVersion {
	size: number;
	/** Last modification, milliseconds since the epoch, where the host reports it. */
	mtimeMs?: number;
}

/**
 * The versions of the files the model last saw, per workspace (all the builtins made over one workspace share
 * it): `read` records what it read, `edit`, `write` and `apply_patch` what they wrote, and refuse to change a
 * file whose version moved since — its content is not what the model based the change on.
 */
const seenVersions = new WeakMap<object, Map<string, FileVersion>>();

function versionsOf(workspace: object): Map<string, FileVersion> {
	let versions = seenVersions.get(workspace);
	if (versions === undefined) {
		versions = new Map();
		seenVersions.set(workspace, versions);
	}
	return versions;
}

/** Whether two versions of a file differ (size, and modification time where both have one). */
export function versionsDiffer(left: FileVersion, right: FileVersion): boolean {
	if (left.size !== right.size) return true;
	return left.mtimeMs !== undefined && right.mtimeMs !== undefined && left.mtimeMs !== right.mtimeMs;
}

/** Remembers that the model saw `path` (absolute on the workspace) as it is in `version`. */
export function rememberFileVersion(workspace: object, path: string, version: FileVersion | undefined): void {
	if (version === undefined) versionsOf(workspace).delete(path);
	else
		versionsOf(workspace).set(path, {
			size: version.size,
			...(version.mtimeMs === undefined ? {} : { mtimeMs: version.mtimeMs }),
		});
}

/**
 * Throws when the model saw `path` before and it changed since: `current` is what is there now (undefined
 * when nothing is, or when the operations cannot tell: not checked). A file the model never read is not checked.
 */
export function assertUnchangedSinceSeen(
	workspace: object,
	path: string,
	current: FileVersion | undefined,
	displayPath: string,
): void {
	const seen = versionsOf(workspace).get(path);
	if (seen === undefined || current === undefined || !versionsDiffer(seen, current)) return;
	throw new Error(
		`${displayPath} changed since it was last read (someone else wrote to it: the user, a formatter or another program). Read it again, then make the change on what it holds now.`,
	);
}

/** The error for a file that changed between reading it and writing the change: nothing was written. */
export function changedMeanwhileError(displayPath: string): Error {
	return new Error(
		`${displayPath} changed while the change was being made (another program wrote to it); nothing was written. Read it again and repeat the change.`,
	);
}
