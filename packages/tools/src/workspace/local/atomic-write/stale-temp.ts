import { randomBytes } from "node:crypto";
import { readdir, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorCode } from "../../../error-text.js";

/** `.<name>.<pid>-<12 hex digits>.tmp`: the writer's process id is in the name so a later write can tell whether it still runs. */
const TEMPORARY_NAME = /^\.(.*)\.(\d+)-[0-9a-f]{12}\.tmp$/;

/** The temporary file a write of `target` by this process goes to, in the same folder (so the rename is atomic). */
export function temporaryPathFor(target: string): string {
	return join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
}

/** Whether the process `pid` still runs on this machine (one owned by another user counts as running). */
function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return errorCode(error) !== "ESRCH";
	}
}

/**
 * Removes the temporary files that writers of `target` left when they were killed mid-write (`kill -9`, a
 * crash, a power cut): those named after `target` whose writer process no longer runs. Temporary files of
 * running writers (this process's included) are left alone. Best effort: a folder that cannot be listed,
 * or a file that cannot be removed, is skipped silently. A writer in another PID namespace sharing the
 * folder looks dead; its rename then fails and it reports the failed write (nothing is lost).
 */
export async function removeStaleTemporaryFiles(target: string): Promise<void> {
	const folder = dirname(target);
	const name = basename(target);
	let entries: string[];
	try {
		entries = await readdir(folder);
	} catch {
		return;
	}
	const stale: string[] = [];
	for (const entry of entries) {
		const match = TEMPORARY_NAME.exec(entry);
		if (match === null || match[1] !== name) continue;
		const pid = Number(match[2]);
		if (pid !== process.pid && !isRunning(pid)) stale.push(entry);
	}
	await Promise.all(stale.map((entry) => unlink(join(folder, entry)).catch(() => undefined)));
}
