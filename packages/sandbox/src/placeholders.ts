import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";

/**
 * bubblewrap creates an empty file or folder on the host for every protected path that does not exist (a
 * mount point to hold the read-only bind), and leaves it there. Removing one while any sandbox of this
 * process runs would detach that sandbox's mount and let it create the protected file, so they are removed
 * when the last running sandboxed command of the process has ended. Another Gantry process working in the
 * same folder is not seen; its sandboxes are not protected from this one's clean-up.
 */

let running = 0;
const pending = new Set<string>();

/** Counts a sandboxed command that is starting. */
export function sandboxedCommandStarted(): void {
	running++;
}

/** Counts one that ended; when none runs any more, removes the placeholders of every profile that ran. */
export function sandboxedCommandEnded(placeholders: readonly string[]): void {
	for (const placeholder of placeholders) pending.add(placeholder);
	running = Math.max(0, running - 1);
	if (running === 0) removePlaceholders();
}

/** Removes each placeholder still as bubblewrap left it (an empty file or an empty folder), deepest first. */
function removePlaceholders(): void {
	const deepestFirst = [...pending].sort((a, b) => b.length - a.length);
	pending.clear();
	for (const placeholder of deepestFirst) {
		try {
			const stats = lstatSync(placeholder, { throwIfNoEntry: false });
			if (stats === undefined) continue;
			if (stats.isFile() && stats.size === 0) unlinkSync(placeholder);
			else if (stats.isDirectory() && readdirSync(placeholder).length === 0) rmdirSync(placeholder);
		} catch {
			// Gone already, or not ours to remove.
		}
	}
}
