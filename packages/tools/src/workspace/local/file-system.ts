import {
	closeSync,
	createWriteStream,
	type Dirent,
	existsSync,
	lstatSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	type Stats,
	statSync,
} from "node:fs";
import { access, constants, mkdir, readFile, readlink, realpath, rm, unlink } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { errorCode } from "../../error-text.js";
import type {
	WorkspaceDirEntry,
	WorkspaceFileKind,
	WorkspaceFileSystem,
	WorkspaceLinkStat,
	WorkspaceStat,
	WorkspaceWriteHandle,
} from "../types.js";
import { assertWritablePath, writeFileAtomic } from "./atomic-write.js";

// The search tools' calls (stat, lstat, readdir, open and its reads) are synchronous on purpose: for
// the many small files of a source tree they cost a fraction of a thread-pool round trip (measured
// 4-8x faster on the benchmark tree). Reads give the event loop a turn once they held it for a time
// slice, so a long scan of a large file never starves timers, I/O and aborts.

/** How long synchronous reads may hold the event loop before one of them yields. */
const SLICE_MS = 12;
let sliceStart = performance.now();

function kindOf(stats: Stats | Dirent): WorkspaceFileKind {
	return stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
}

function describe(stats: Stats): Omit<WorkspaceStat, "kind"> {
	return {
		size: stats.size,
		mode: stats.mode & 0o7777,
		uid: stats.uid,
		gid: stats.gid,
		nlink: stats.nlink,
		mtimeMs: stats.mtimeMs,
	};
}

function isMissing(error: unknown): boolean {
	const code = errorCode(error);
	return code === "ENOENT" || code === "ENOTDIR";
}

/** A folder entry, links reported as links. */
function entryOf(dirent: Dirent): WorkspaceDirEntry {
	return { name: dirent.name, kind: dirent.isSymbolicLink() ? "symlink" : kindOf(dirent) };
}

/** Bytes a write stream buffers before `write` waits for the disk. */
const STREAM_HIGH_WATER_MARK = 1024 * 1024;

/** Opens a sequential write stream (mode 0600: spill and full-output files are private). */
function openWriteStream(path: string): Promise<WorkspaceWriteHandle> {
	return new Promise((resolve, reject) => {
		const stream = createWriteStream(path, { flags: "w", mode: 0o600, highWaterMark: STREAM_HIGH_WATER_MARK });
		let failure: Error | undefined;
		stream.on("error", (error) => {
			failure = error;
		});
		stream.once("error", reject);
		stream.once("open", () => {
			stream.off("error", reject);
			resolve({
				write: (data) =>
					new Promise<void>((done, fail) => {
						if (failure) return fail(failure);
						if (stream.write(data)) return done();
						const settle = () => {
							stream.off("drain", settle);
							stream.off("close", settle);
							if (failure) fail(failure);
							else done();
						};
						stream.on("drain", settle);
						stream.on("close", settle);
					}),
				close: () =>
					new Promise<void>((done, fail) => {
						if (stream.closed) return failure ? fail(failure) : done();
						stream.once("close", () => (failure ? fail(failure) : done()));
						stream.end();
					}),
			});
		});
	});
}

const textDecoder = new TextDecoder();

/**
 * The text of a regular file (links followed), or undefined when it is missing, not a file or unreadable;
 * synchronous like the search calls above. For the ignore files a search reads: they are small, and the
 * promise-based `readFile` spends four thread-pool round trips on each, which a search waits for one file
 * after another (measured 20-60 ms for the 41 .gitignore files of the benchmark tree on a busy machine,
 * against 1-2 ms read here).
 */
export function readLocalTextOrUndefined(path: string): string | undefined {
	try {
		// A missing file is answered without an exception: most folders a search looks in have no ignore file.
		if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
		return textDecoder.decode(readFileSync(path));
	} catch {
		return undefined;
	}
}

/**
 * Whether anything is at `path` (links followed: a broken one counts as nothing), synchronously and without
 * building a stat object: a search asks it of each folder's `.git` on its way.
 */
export function localPathExists(path: string): boolean {
	return existsSync(path);
}

/** This machine's file system, as the builtins see it through a local Workspace. */
export const localFileSystem: WorkspaceFileSystem = {
	async stat(path) {
		try {
			const stats = statSync(path, { throwIfNoEntry: false });
			return stats === undefined ? undefined : { kind: kindOf(stats), ...describe(stats) };
		} catch (error) {
			if (isMissing(error)) return undefined;
			throw error;
		}
	},
	async lstat(path) {
		try {
			const stats = lstatSync(path, { throwIfNoEntry: false });
			if (stats === undefined) return undefined;
			const kind: WorkspaceLinkStat["kind"] = stats.isSymbolicLink() ? "symlink" : kindOf(stats);
			return { kind, ...describe(stats) };
		} catch (error) {
			if (isMissing(error)) return undefined;
			throw error;
		}
	},
	readlink: (path) => readlink(path),
	async readdir(path) {
		const dirents = readdirSync(path, { withFileTypes: true });
		return dirents.map((dirent) => entryOf(dirent));
	},
	async open(path) {
		const descriptor = openSync(path, constants.O_RDONLY);
		return {
			async read(buffer, offset, length, position) {
				const count = readSync(descriptor, buffer, offset, length, position);
				if (performance.now() - sliceStart >= SLICE_MS) {
					await nextTurn();
					sliceStart = performance.now();
				}
				return count;
			},
			close: async () => closeSync(descriptor),
		};
	},
	readFile: async (path) => readFile(path),
	writeFileAtomic: (path, data) => writeFileAtomic(path, data),
	async mkdir(path) {
		await mkdir(path, { recursive: true });
	},
	async access(path, mode) {
		await access(path, constants.R_OK);
		// A read-only file (no write bit for anyone) is refused for root too, whom access() lets through.
		if (mode === "write") await assertWritablePath(path);
	},
	realpath: (path) => realpath(path),
	async unlink(path) {
		await unlink(path).catch((error: unknown) => {
			if (errorCode(error) !== "ENOENT") throw error;
		});
	},
	remove: (path) => rm(path, { recursive: true, force: true }),
	createWriteStream: openWriteStream,
};

/** The file's text, or undefined when it is missing or unreadable (synchronous, for the local glob). */
export function readTextSync(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
}

/** Reads ignore files from the local disk, synchronously (the local glob's listing callbacks need it). */
export const localIgnoreFileReaderSync = { readText: readTextSync, exists: existsSync };
