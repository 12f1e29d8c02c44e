import type { Stats } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { removeStaleTemporaryFiles, temporaryPathFor } from "./atomic-write/stale-temp.js";
import { assertWritable, resolveWriteTarget } from "./atomic-write/target.js";

export { assertWritablePath } from "./atomic-write/target.js";

export interface AtomicWriteOptions {
	/**
	 * Flush the file to disk before the rename and the folder entry after it, so the new content
	 * survives a power cut (not only a crash of this process). Slower. Default `false`.
	 */
	fsync?: boolean;
}

function failure(code: string, message: string, path: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: ${message}, '${path}'`), { code, path });
}

/**
 * Replaces (or creates) the file at `path` with `data` so that readers and crashes only ever see the old
 * or the new content, never half of it: the data goes to a temporary file in the same folder, which is
 * then renamed over the target.
 *
 * - An existing file keeps its owner (when running as root) and then its exact mode, in that order, so
 *   set-user-id and set-group-id bits survive (a `chown` clears them).
 * - A symbolic link is followed and its target rewritten; a dangling link gets its target created (the
 *   link stays a link).
 * - A file with more than one hard link is rewritten in place instead, so every name keeps seeing the
 *   same file. That write is not atomic: a crash in the middle can leave it half written.
 * - A read-only file (no write bit for anyone, or no write access for this user) is refused with `EACCES`,
 *   even for root.
 * - Temporary files of earlier writers of the same file that were killed mid-write (their process no
 *   longer runs) are removed; the temporary file of this write is removed when anything fails.
 *
 * Rejects with the underlying file-system error (e.g. `ENOENT` when the folder is missing, `EISDIR`
 * when `path` is a folder, `EACCES` for a read-only file).
 */
export async function writeFileAtomic(
	path: string,
	data: string | Uint8Array,
	options: AtomicWriteOptions = {},
): Promise<void> {
	const { path: target, existing } = await resolveWriteTarget(path);
	if (existing?.isDirectory()) throw failure("EISDIR", "illegal operation on a directory", path);
	if (existing) await assertWritable(target, existing);
	await removeStaleTemporaryFiles(target);
	if (existing?.isFile() && existing.nlink > 1) return writeInPlace(target, data, options);

	const temporaryPath = temporaryPathFor(target);
	// "wx" never reuses a path someone else created; the umask applies to new files only.
	const handle = await open(temporaryPath, "wx", existing ? existing.mode & 0o7777 : 0o666);
	let renamed = false;
	try {
		try {
			await handle.writeFile(data);
			if (existing) await keepAttributes(handle, existing);
			if (options.fsync) await handle.sync();
		} finally {
			await handle.close();
		}
		await rename(temporaryPath, target);
		renamed = true;
		if (options.fsync) await syncFolder(dirname(target));
	} finally {
		if (!renamed) await unlink(temporaryPath).catch(() => undefined);
	}
}

/** Owner first (root only; a `chown` clears the set-id bits), then the exact mode (open() applied the umask). */
async function keepAttributes(handle: Awaited<ReturnType<typeof open>>, existing: Stats): Promise<void> {
	if (needsOwnerRestore(existing)) {
		// Best effort: a file system without ownership (e.g. some mounts) must not fail the write.
		await handle.chown(existing.uid, existing.gid).catch(() => undefined);
	}
	await handle.chmod(existing.mode & 0o7777);
}

/** Rewrites a hard-linked file through its own inode, so its other names see the new content too. */
async function writeInPlace(target: string, data: string | Uint8Array, options: AtomicWriteOptions): Promise<void> {
	const handle = await open(target, "r+");
	try {
		await handle.writeFile(data);
		const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
		await handle.truncate(bytes);
		if (options.fsync) await handle.sync();
	} finally {
		await handle.close();
	}
}

/** Only root can give a file away, and only a file owned by someone else needs it. */
function needsOwnerRestore(existing: Stats): boolean {
	if (process.getuid?.() !== 0) return false;
	return existing.uid !== process.getuid() || existing.gid !== process.getgid?.();
}

async function syncFolder(folder: string): Promise<void> {
	const handle = await open(folder, "r");
	try {
		await handle.sync();
	} catch {
		// Some platforms cannot fsync a folder; the file itself is already on disk.
	} finally {
		await handle.close();
	}
}
