import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

const tails = new Map<string, Promise<unknown>>();

/** The real path of a file, or of its nearest existing folder joined with the rest (for new files). */
async function queueKey(path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch {
		const parent = dirname(path);
		if (parent === path) return path;
		return join(await queueKey(parent), basename(path));
	}
}

/**
 * Runs `task` after every earlier task queued for the same file (keyed by real path, so links and
 * different spellings of one file share a queue). Tasks on different files run in parallel.
 */
export async function withFileMutationQueue<T>(path: string, task: () => Promise<T>): Promise<T> {
	const key = await queueKey(path);
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(task, task);
	const settled = run.then(
		() => undefined,
		() => undefined,
	);
	tails.set(key, settled);
	try {
		return await run;
	} finally {
		if (tails.get(key) === settled) tails.delete(key);
	}
}
