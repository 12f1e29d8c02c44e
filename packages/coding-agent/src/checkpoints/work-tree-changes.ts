import type { Workspace } from "@gantry/tools";
import type { GitRunner } from "./git-runner.js";

/** What changed in the folder since the session's index, split by the size limit. */
export interface ChangedFiles {
	/** Relative paths to record (added, modified or deleted). */
	paths: string[];
	/** Files over the size limit, left out. */
	tooBig: { path: string; size: number }[];
}

/** Files looked at together (a remote workspace answers each one over the connection). */
const STAT_BATCH = 64;

/**
 * The files `git add -A` would record — untracked ones the ignore files do not exclude, modified and deleted
 * ones — without the files over `limit` bytes. Nested repositories (listed as `folder/`) are left out: a
 * checkpoint could not restore them.
 */
export async function listChangedFiles(
	git: GitRunner,
	workspace: Workspace,
	join: (...parts: string[]) => string,
	limit: number,
): Promise<ChangedFiles> {
	const output = await git.output(["ls-files", "-z", "--others", "--modified", "--deleted", "--exclude-standard"]);
	const listed = new Set(
		output
			.toString("utf8")
			.split("\0")
			.filter((path) => path !== "" && !path.endsWith("/")),
	);
	const candidates = [...listed];
	const paths: string[] = [];
	const tooBig: ChangedFiles["tooBig"] = [];
	for (let start = 0; start < candidates.length; start += STAT_BATCH) {
		const batch = candidates.slice(start, start + STAT_BATCH);
		const stats = await Promise.all(
			batch.map((path) => workspace.fs.lstat(join(workspace.cwd, path)).catch(() => undefined)),
		);
		batch.forEach((path, index) => {
			const stat = stats[index];
			if (stat !== undefined && stat.kind === "file" && stat.size > limit) tooBig.push({ path, size: stat.size });
			else paths.push(path);
		});
	}
	return { paths, tooBig };
}
