import type { SearchFileReader } from "./types.js";

/** Opens a file for a search (the `open` of the built-in engine's operations). */
export type SearchOpener = (path: string) => Promise<SearchFileReader>;

/** The openers that read this machine's files with nothing in between. */
const localOpeners = new WeakSet<SearchOpener>();

/** Records that `open` reads this machine's files exactly as `node:fs` does. */
export function markLocalOpener(open: SearchOpener): void {
	localOpeners.add(open);
}

/**
 * Whether `open` reads this machine's files as `node:fs` does (the open of `searchOperationsOn` the local
 * file system), so other threads may read the same paths themselves. Operations that wrap or replace it
 * are not.
 */
export function opensLocalFiles(open: SearchOpener): boolean {
	return localOpeners.has(open);
}
