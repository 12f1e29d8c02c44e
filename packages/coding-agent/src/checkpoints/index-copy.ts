import { stat, utimes } from "node:fs/promises";
import type { Workspace } from "@gantry/tools";

/**
 * Copies a git index file keeping its modification time. Git trusts an entry's cached file times only for
 * a file last changed before the index was written (its "racy git" rule compares with the index file's
 * own time): a copy with a later time would make a file changed in the same second as the original index
 * look unchanged to the session that starts from the copy. When the time cannot be kept, no copy is left
 * (the session then hashes the folder afresh).
 */
export async function copyIndexFile(workspace: Workspace, from: string, to: string): Promise<void> {
	await workspace.fs.writeFileAtomic(to, await workspace.fs.readFile(from));
	try {
		if (workspace.isLocal) {
			const times = await stat(from);
			await utimes(to, times.atime, times.mtime);
			return;
		}
		const touched = await workspace.processes.spawn("touch", ["-r", from, to], { cwd: workspace.cwd });
		if (touched.exitCode !== 0) throw new Error(`touch -r exited with ${String(touched.exitCode)}`);
	} catch {
		await workspace.fs.unlink(to).catch(() => undefined);
	}
}
