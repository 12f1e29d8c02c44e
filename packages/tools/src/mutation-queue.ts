import { realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** Tails of the queues keyed by the path as spelled (resolved), joined synchronously: first come, first served. */
const spelledTails = new Map<string, Promise<unknown>>();
/** Tails of the queues keyed by real path, so links and other spellings of one file share a queue too. */
const realTails = new Map<string, Promise<unknown>>();

/** The real path of a file, or of its nearest existing folder joined with the rest (for new files). */
async function realKey(path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch {
		const parent = dirname(path);
		if (parent === path) return path;
		return join(await realKey(parent), basename(path));
	}
}

function enqueue<T>(tails: Map<string, Promise<unknown>>, key: string, task: () => Promise<T>): Promise<T> {
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(task, task);
	const settled = run.then(
		() => undefined,
		() => undefined,
	);
	tails.set(key, settled);
	void settled.then(() => {
		if (tails.get(key) === settled) tails.delete(key);
	});
	return run;
}

/**
 * Runs `task` after every earlier task queued for the same file. Calls that spell the path the same
 * way run in the order they were made; different spellings of one file (links, `..`) share a queue
 * keyed by real path, so they never interleave either. Tasks on different files run in parallel.
 */
export function withFileMutationQueue<T>(path: string, task: () => Promise<T>): Promise<T> {
	return enqueue(spelledTails, resolve(path), async () => enqueue(realTails, await realKey(path), task));
}
