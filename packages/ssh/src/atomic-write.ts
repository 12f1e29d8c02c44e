import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import type { SFTPWrapper } from "ssh2";
import { fromSftpError, isNoSuchFile, posixError } from "./posix-error.js";
import { sftpCall } from "./sftp-calls.js";

interface KeptAttributes {
	mode: number;
	uid?: number;
	gid?: number;
}

/** The file a write to `path` lands in (a symbolic link is followed) and what it keeps. */
async function resolveTarget(sftp: SFTPWrapper, path: string): Promise<{ target: string; kept?: KeptAttributes }> {
	let target: string;
	try {
		target = await sftpCall.realpath(sftp, path);
	} catch (error) {
		if (isNoSuchFile(error)) return { target: path };
		throw fromSftpError(error, "realpath", path);
	}
	try {
		const info = await sftpCall.stat(sftp, target);
		if (info.isDirectory()) throw posixError("EISDIR", "open", path);
		return { target, kept: { mode: info.mode & 0o7777, uid: info.uid, gid: info.gid } };
	} catch (error) {
		if (isNoSuchFile(error)) return { target: path };
		throw fromSftpError(error, "stat", path);
	}
}

/**
 * Replaces (or creates) `path` on the host so that readers only ever see the old or the new content: the
 * bytes go to a temporary file in the same folder, which OpenSSH's posix-rename then puts over the
 * target. An existing file keeps its owner (where the server lets the user give it) and then its mode; a
 * link is followed. The temporary file is removed when anything fails.
 */
export async function writeFileAtomicRemote(sftp: SFTPWrapper, path: string, data: Uint8Array): Promise<void> {
	const { target, kept } = await resolveTarget(sftp, path);
	const temporary = posix.join(
		posix.dirname(target),
		`.${posix.basename(target)}.${randomBytes(6).toString("hex")}.tmp`,
	);
	// "wx" never reuses a path someone else created; new files get the server's umask, as locally.
	const handle = await sftpCall.open(sftp, temporary, "wx", kept ? { mode: 0o600 } : undefined).catch((error) => {
		throw fromSftpError(error, "open", path);
	});
	let renamed = false;
	try {
		try {
			const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
			if (buffer.length > 0) await sftpCall.write(sftp, handle, buffer, 0);
			if (kept) {
				// Owner before mode, so set-id bits survive. Best effort: only root can give a file away, and a
				// user may only pick one of their own groups.
				if (kept.uid !== undefined && kept.gid !== undefined) {
					await sftpCall.fchown(sftp, handle, kept.uid, kept.gid).catch(() => undefined);
				}
				await sftpCall.fchmod(sftp, handle, kept.mode);
			}
		} finally {
			await sftpCall.close(sftp, handle);
		}
		await sftpCall.rename(sftp, temporary, target).catch((error) => {
			throw fromSftpError(error, "rename", path);
		});
		renamed = true;
	} finally {
		if (!renamed) await sftpCall.unlink(sftp, temporary).catch(() => undefined);
	}
}
