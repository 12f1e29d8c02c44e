import { basename, dirname, join, resolve } from "node:path";
import { localFileSystem } from "./workspace/local/file-system.js";
import type { Workspace } from "./workspace/types.js";

/**
 * Tails of the queues keyed by the workspace's label and the path as spelled (resolved), joined
 * synchronously: first come, first served.
 */
const spelledTails = new Map<string, Promise<unknown>>();
/** Tails of the queues keyed by real path, so links and other spellings of one file share a queue too. */
const realTails = new Map<string, Promise<unknown>>();

/** The real path of a file, or of its nearest existing folder joined with the rest (for new files). */
async function realKey(realpath: (path: string) => Promise<string>, path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch {
		const parent = dirname(path);
		if (parent === path) return path;
		return join(await realKey(realpath, parent), basename(path));
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
	return queueOn("local", localFileSystem.realpath, resolve(path), task);
}

/** `withFileMutationQueue` for a file of `workspace` (`path` absolute on it): one queue per host and file. */
export function withWorkspaceMutationQueue<T>(workspace: Workspace, path: string, task: () => Promise<T>): Promise<T> {
	return queueOn(workspace.label, (target) => workspace.fs.realpath(target), path, task);
}

/**
 * Runs `task` once it holds the queues of every path in `paths` (absolute on `workspace`) at once, for a
 * change that must see and write several files together (a patch). The queues are taken in one global
 * order (spelled paths sorted, then real paths sorted), so two such tasks, or such a task and the
 * single-file ones, can never wait for each other in a circle.
 */
export function withWorkspaceMutationQueues<T>(
	workspace: Workspace,
	paths: readonly string[],
	task: () => Promise<T>,
): Promise<T> {
	const host = workspace.label;
	const realpath = (target: string) => workspace.fs.realpath(target);
	const spelled = [...new Set(paths)].sort();
	const holding = (tails: Map<string, Promise<unknown>>, keys: readonly string[], inner: () => Promise<T>) =>
		keys.reduceRight<() => Promise<T>>((next, key) => () => enqueue(tails, `${host}\0${key}`, next), inner)();
	return holding(spelledTails, spelled, async () => {
		const real = [...new Set(await Promise.all(spelled.map((path) => realKey(realpath, path))))].sort();
		return holding(realTails, real, task);
	});
}

function queueOn<T>(
	host: string,
	realpath: (path: string) => Promise<string>,
	path: string,
	task: () => Promise<T>,
): Promise<T> {
	return enqueue(spelledTails, `${host}\0${path}`, async () =>
		enqueue(realTails, `${host}\0${await realKey(realpath, path)}`, task),
	);
}
