import { posix } from "node:path";
import type {
	WorkspaceDirEntry,
	WorkspaceFileKind,
	WorkspaceFileSystem,
	WorkspaceLinkStat,
	WorkspaceStat,
} from "@gantry/tools";
import type { Attributes, SFTPWrapper } from "ssh2";
import { writeFileAtomicRemote } from "./atomic-write.js";
import type { LiveConnection, SshConnection } from "./connection.js";
import { fromSftpError, isNoSuchFile, posixError } from "./posix-error.js";
import { shellQuote } from "./quote.js";
import { execCollect } from "./remote-exec.js";
import { sftpCall } from "./sftp-calls.js";

/** Who the remote user is, for `access` (SFTP has no access request). */
export interface RemoteIdentity {
	uid: number;
	gids: readonly number[];
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
/** Bytes per read request while fetching a whole file, and how many requests are in flight at once. */
const READ_CHUNK = 256 * 1024;
const READS_IN_FLIGHT = 8;
/** What one positional read that misses the handle's window fetches. */
const READ_AHEAD = 1024 * 1024;

export function kindOf(mode: number | undefined): WorkspaceFileKind | "symlink" {
	const type = (mode ?? 0) & S_IFMT;
	if (type === S_IFDIR) return "directory";
	if (type === S_IFREG) return "file";
	if (type === S_IFLNK) return "symlink";
	return "other";
}

function describe(attributes: Attributes): WorkspaceLinkStat {
	const stat: WorkspaceLinkStat = {
		kind: kindOf(attributes.mode),
		size: attributes.size ?? 0,
		mode: (attributes.mode ?? 0) & 0o7777,
		uid: attributes.uid,
		gid: attributes.gid,
	};
	if (attributes.mtime !== undefined) stat.mtimeMs = attributes.mtime * 1000;
	return stat;
}

/** The file system of the host, over the connection's SFTP session. */
export function createRemoteFileSystem(connection: SshConnection, identity: RemoteIdentity): WorkspaceFileSystem {
	const withSftp = <T>(operation: (sftp: SFTPWrapper, live: LiveConnection) => Promise<T>) =>
		connection.use(async (live) => operation(await live.sftp(), live));

	const statOrUndefined = async (sftp: SFTPWrapper, path: string, follow: boolean) => {
		try {
			return describe(follow ? await sftpCall.stat(sftp, path) : await sftpCall.lstat(sftp, path));
		} catch (error) {
			if (isNoSuchFile(error)) return undefined;
			throw fromSftpError(error, follow ? "stat" : "lstat", path);
		}
	};

	const fileSystem: WorkspaceFileSystem = {
		stat: (path) => withSftp((sftp) => statOrUndefined(sftp, path, true)) as Promise<WorkspaceStat | undefined>,
		lstat: (path) => withSftp((sftp) => statOrUndefined(sftp, path, false)),

		readlink: (path) =>
			withSftp(async (sftp) => {
				const info = await statOrUndefined(sftp, path, false);
				if (!info) throw posixError("ENOENT", "readlink", path);
				if (info.kind !== "symlink") throw posixError("EINVAL", "readlink", path);
				return sftpCall.readlink(sftp, path).catch((error) => {
					throw fromSftpError(error, "readlink", path, "EINVAL");
				});
			}),

		readdir: (path) =>
			withSftp(async (sftp) => {
				try {
					const entries = await sftpCall.readdir(sftp, path);
					const listed: WorkspaceDirEntry[] = [];
					for (const entry of entries) {
						if (entry.filename === "." || entry.filename === "..") continue;
						listed.push({ name: entry.filename, kind: kindOf(entry.attrs.mode) });
					}
					return listed;
				} catch (error) {
					// OpenSSH reports ENOTDIR as "no such file": a file at the path says which it was.
					const info = await statOrUndefined(sftp, path, true).catch(() => undefined);
					if (info && info.kind !== "directory") throw posixError("ENOTDIR", "scandir", path, error);
					throw fromSftpError(error, "scandir", path);
				}
			}),

		open: (path) =>
			withSftp(async (sftp) => {
				const handle = await sftpCall.open(sftp, path, "r").catch((error) => {
					throw fromSftpError(error, "open", path);
				});
				// Readers page through a file in small positional reads: each miss fetches a whole window, several
				// requests in flight, so that the following reads cost no round trip.
				let window: { position: number; data: Buffer; atEnd: boolean } | undefined;
				return {
					read: async (buffer, offset, length, position) => {
						if (length <= 0) return 0;
						const covers = (held: typeof window) =>
							held !== undefined &&
							position >= held.position &&
							(position + length <= held.position + held.data.length || held.atEnd);
						if (!covers(window)) {
							const size = Math.max(length, READ_AHEAD);
							const data = await fetchRange(sftp, handle, position, size, path);
							window = { position, data, atEnd: data.length < size };
						}
						const held = window as NonNullable<typeof window>;
						const start = position - held.position;
						const count = Math.max(0, Math.min(length, held.data.length - start));
						held.data.copy(buffer, offset, start, start + count);
						return count;
					},
					close: () => sftpCall.close(sftp, handle).catch(() => undefined),
				};
			}),

		readFile: (path) =>
			withSftp(async (sftp) => {
				const info = await statOrUndefined(sftp, path, true);
				if (!info) throw posixError("ENOENT", "open", path);
				if (info.kind === "directory") throw posixError("EISDIR", "read", path);
				const handle = await sftpCall.open(sftp, path, "r").catch((error) => {
					throw fromSftpError(error, "open", path);
				});
				try {
					return await readWhole(sftp, handle, info.size, path);
				} finally {
					await sftpCall.close(sftp, handle).catch(() => undefined);
				}
			}),

		writeFileAtomic: (path, data) => withSftp((sftp) => writeFileAtomicRemote(sftp, path, data)),

		mkdir: (path) => withSftp((sftp) => makeFolders(sftp, posix.normalize(path))),

		access: (path, mode) =>
			withSftp(async (sftp) => {
				const info = await statOrUndefined(sftp, path, true);
				if (!info) throw posixError("ENOENT", "access", path);
				const wanted = mode === "write" ? 0o6 : 0o4;
				if (!permits(info, identity, wanted)) throw posixError("EACCES", "access", path);
			}),

		realpath: (path) =>
			withSftp(async (sftp) => {
				const resolved = await sftpCall.realpath(sftp, path).catch((error) => {
					throw fromSftpError(error, "realpath", path, "ENOENT");
				});
				// Some servers canonicalise a path that does not exist; the contract says ENOENT.
				if (!(await statOrUndefined(sftp, resolved, false))) throw posixError("ENOENT", "realpath", path);
				return resolved;
			}),

		unlink: (path) =>
			withSftp(async (sftp) => {
				try {
					await sftpCall.unlink(sftp, path);
				} catch (error) {
					if (isNoSuchFile(error)) return;
					const info = await statOrUndefined(sftp, path, false).catch(() => undefined);
					if (info?.kind === "directory") throw posixError("EISDIR", "unlink", path, error);
					throw fromSftpError(error, "unlink", path);
				}
			}),

		remove: (path) =>
			connection.use(async (live) => {
				const normalized = posix.normalize(path);
				if (!posix.isAbsolute(normalized) || normalized === "/") {
					throw new Error(`Refusing to remove ${JSON.stringify(path)}: give an absolute path below /.`);
				}
				const result = await execCollect(live.client, `rm -rf -- ${shellQuote(normalized)}`);
				if (result.exitCode !== 0) {
					throw posixError(
						"EACCES",
						"rm",
						path,
						new Error(result.stderr.trim() || `rm exited with ${result.exitCode}`),
					);
				}
			}),

		createWriteStream: (path) =>
			withSftp(async (sftp) => {
				const handle = await sftpCall.open(sftp, path, "w").catch((error) => {
					throw fromSftpError(error, "open", path, "EISDIR");
				});
				let position = 0;
				return {
					write: async (data) => {
						const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
						await sftpCall.write(sftp, handle, buffer, position);
						position += buffer.length;
					},
					close: () => sftpCall.close(sftp, handle),
				};
			}),
	};
	return fileSystem;
}

/** Up to `size` bytes from `position`, several requests in flight; shorter only at the end of the file. */
async function fetchRange(
	sftp: SFTPWrapper,
	handle: Buffer,
	position: number,
	size: number,
	path: string,
): Promise<Buffer> {
	const parts: Promise<Buffer>[] = [];
	for (let at = position; at < position + size; at += READ_CHUNK) {
		const length = Math.min(READ_CHUNK, position + size - at);
		const buffer = Buffer.allocUnsafe(length);
		parts.push(
			sftpCall.read(sftp, handle, buffer, 0, length, at).then(
				(count) => buffer.subarray(0, count),
				(error) => {
					throw fromSftpError(error, "read", path, "EISDIR");
				},
			),
		);
	}
	const kept: Buffer[] = [];
	for (const part of await Promise.all(parts)) {
		kept.push(part);
		if (part.length < READ_CHUNK) break;
	}
	return Buffer.concat(kept);
}

/** Reads a whole file, several requests in flight; a file that grew meanwhile is read on to its end. */
async function readWhole(sftp: SFTPWrapper, handle: Buffer, size: number, path: string): Promise<Uint8Array> {
	const chunks: Buffer[] = [];
	let position = 0;
	const readAt = async (at: number, length: number) => {
		const buffer = Buffer.allocUnsafe(length);
		const count = await sftpCall.read(sftp, handle, buffer, 0, length, at).catch((error) => {
			throw fromSftpError(error, "read", path, "EISDIR");
		});
		return buffer.subarray(0, count);
	};
	while (position < size) {
		const batch: Promise<Buffer>[] = [];
		for (let index = 0; index < READS_IN_FLIGHT && position < size; index++) {
			batch.push(readAt(position, Math.min(READ_CHUNK, size - position)));
			position += READ_CHUNK;
		}
		let short = false;
		for (const part of await Promise.all(batch)) {
			chunks.push(part);
			// A short read is the end of the file (it may have shrunk): later parts are empty or stale.
			if (part.length < READ_CHUNK) {
				short = true;
				break;
			}
		}
		if (short) break;
	}
	let total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
	for (;;) {
		const more = await readAt(total, READ_CHUNK);
		if (more.length === 0) break;
		chunks.push(more);
		total += more.length;
	}
	return Buffer.concat(chunks);
}

async function makeFolders(sftp: SFTPWrapper, path: string): Promise<void> {
	try {
		await sftpCall.mkdir(sftp, path);
		return;
	} catch (error) {
		const info = await sftpCall.stat(sftp, path).catch(() => undefined);
		if (info) {
			if (info.isDirectory()) return;
			throw posixError("EEXIST", "mkdir", path, error);
		}
		const parent = posix.dirname(path);
		if (!isNoSuchFile(error) || parent === path) throw fromSftpError(error, "mkdir", path);
	}
	await makeFolders(sftp, posix.dirname(path));
	try {
		await sftpCall.mkdir(sftp, path);
	} catch (error) {
		// Someone else made it meanwhile.
		const info = await sftpCall.stat(sftp, path).catch(() => undefined);
		if (!info?.isDirectory()) throw fromSftpError(error, "mkdir", path);
	}
}

/** Whether the mode bits grant `wanted` (4 read, 2 write) to the user; root may read and write anything. */
function permits(info: WorkspaceLinkStat, identity: RemoteIdentity, wanted: number): boolean {
	if (identity.uid === 0) return true;
	let bits = info.mode & 0o7;
	if (info.uid === identity.uid) bits = (info.mode >> 6) & 0o7;
	else if (info.gid !== undefined && identity.gids.includes(info.gid)) bits = (info.mode >> 3) & 0o7;
	return (bits & wanted) === wanted;
}
