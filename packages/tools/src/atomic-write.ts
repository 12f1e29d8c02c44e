import { randomBytes } from "node:crypto";
import { open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
	/**
	 * Flush the file to disk before the rename and the folder entry after it, so the new content
	 * survives a power cut (not only a crash of this process). Slower. Default `false`.
	 */
	fsync?: boolean;
}

/** What an existing file keeps across a rewrite. */
interface KeptAttributes {
	mode: number;
	uid: number;
	gid: number;
}

/** The file a write to `path` really lands in (a symbolic link is followed, not replaced) and its attributes. */
async function resolveTarget(path: string): Promise<{ target: string; kept?: KeptAttributes }> {
	try {
		const target = await realpath(path);
		const info = await stat(target);
		return { target, kept: { mode: info.mode & 0o7777, uid: info.uid, gid: info.gid } };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { target: path };
		throw error;
	}
}

function temporaryPathFor(target: string): string {
	return join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * Replaces (or creates) the file at `path` with `data` so that readers and crashes only ever see the old
 * or the new content, never half of it: the data goes to a temporary file in the same folder, which is
 * then renamed over the target. An existing file keeps its permission bits (and, when running as root,
 * its owner); a symbolic link is followed and its target rewritten. The temporary file is removed when
 * anything fails.
 *
 * Rejects with the underlying file-system error (e.g. `ENOENT` when the folder is missing, `EISDIR`
 * when `path` is a folder).
 */
export async function writeFileAtomic(
	path: string,
	data: string | Uint8Array,
	options: AtomicWriteOptions = {},
): Promise<void> {
	const { target, kept } = await resolveTarget(path);
	const temporaryPath = temporaryPathFor(target);
	// "wx" never reuses a path someone else created; the umask applies to new files only.
	const handle = await open(temporaryPath, "wx", kept?.mode ?? 0o666);
	let renamed = false;
	try {
		try {
			await handle.writeFile(data);
			if (kept) {
				// open() applied the umask; an existing file keeps its exact bits.
				await handle.chmod(kept.mode);
				if (needsOwnerRestore(kept)) {
					// Best effort: a file system without ownership (e.g. some mounts) must not fail the write.
					await handle.chown(kept.uid, kept.gid).catch(() => undefined);
				}
			}
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

/** Only root can give a file away, and only a file owned by someone else needs it. */
function needsOwnerRestore(kept: KeptAttributes): boolean {
	if (process.getuid?.() !== 0) return false;
	return kept.uid !== process.getuid() || kept.gid !== process.getgid?.();
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
