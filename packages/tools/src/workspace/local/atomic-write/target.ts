import { constants, type Stats } from "node:fs";
import { access, lstat, readlink, realpath, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { errorCode } from "../../../error-text.js";

/** Links followed before giving up, like the kernel's limit. */
const MAX_LINK_HOPS = 40;

/** Where a write of a path lands, and what the file there is now. */
export interface WriteTarget {
	/** The file really written: the path itself, or the end of its chain of symbolic links. */
	path: string;
	/** The existing file at `path`, links followed; undefined when the write creates it. */
	existing?: Stats;
}

function failure(code: string, message: string, path: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: ${message}, '${path}'`), { code, path });
}

/**
 * The end of the chain of symbolic links that starts at `path`, when that end does not exist (a dangling
 * link): writing there creates the file the link points at and keeps the link.
 */
async function danglingLinkEnd(path: string): Promise<string> {
	let current = path;
	for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
		let info: Stats;
		try {
			info = await lstat(current);
		} catch (error) {
			if (errorCode(error) === "ENOENT") return current;
			throw error;
		}
		if (!info.isSymbolicLink()) return current;
		current = resolve(dirname(current), await readlink(current));
	}
	throw failure("ELOOP", "too many levels of symbolic links", path);
}

/** Resolves where a write of `path` lands: a live link is followed to its file, a dangling one to the file it names. */
export async function resolveWriteTarget(path: string): Promise<WriteTarget> {
	try {
		const target = await realpath(path);
		return { path: target, existing: await stat(target) };
	} catch (error) {
		if (errorCode(error) !== "ENOENT") throw error;
	}
	return { path: await danglingLinkEnd(path) };
}

/**
 * Rejects with `EACCES` when the existing file may not be written: the caller has no write access, or
 * (checked for root too, whom `access` always lets through) the file is read-only, with no write bit set
 * for anyone. A temporary file renamed over it would otherwise replace a file its owner marked read-only.
 */
export async function assertWritable(path: string, existing: Stats): Promise<void> {
	await access(path, constants.W_OK);
	if ((existing.mode & 0o222) === 0)
		throw failure(
			"EACCES",
			`permission denied (read-only, mode ${(existing.mode & 0o7777).toString(8).padStart(4, "0")})`,
			path,
		);
}

/** `assertWritable` for the file at `path` (links followed); rejects with `ENOENT` when it is missing. */
export async function assertWritablePath(path: string): Promise<void> {
	await assertWritable(path, await stat(path));
}
