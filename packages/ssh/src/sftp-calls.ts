import type { FileEntryWithStats, InputAttributes, OpenMode, SFTPWrapper, Stats } from "ssh2";

/** Promise forms of the SFTP requests the file system uses. Errors are ssh2's (with an SFTP status `code`). */
export const sftpCall = {
	stat: (sftp: SFTPWrapper, path: string) => promised<Stats>((done) => sftp.stat(path, done)),
	lstat: (sftp: SFTPWrapper, path: string) => promised<Stats>((done) => sftp.lstat(path, done)),
	readlink: (sftp: SFTPWrapper, path: string) => promised<string>((done) => sftp.readlink(path, done)),
	realpath: (sftp: SFTPWrapper, path: string) => promised<string>((done) => sftp.realpath(path, done)),
	readdir: (sftp: SFTPWrapper, path: string) => promised<FileEntryWithStats[]>((done) => sftp.readdir(path, done)),
	open: (sftp: SFTPWrapper, path: string, flags: OpenMode, attributes?: InputAttributes) =>
		promised<Buffer>((done) => (attributes ? sftp.open(path, flags, attributes, done) : sftp.open(path, flags, done))),
	close: (sftp: SFTPWrapper, handle: Buffer) => promised<void>((done) => sftp.close(handle, done)),
	read: (sftp: SFTPWrapper, handle: Buffer, buffer: Buffer, offset: number, length: number, position: number) =>
		promised<number>((done) =>
			sftp.read(handle, buffer, offset, length, position, (error, count) => done(error, count)),
		),
	write: (sftp: SFTPWrapper, handle: Buffer, buffer: Buffer, position: number) =>
		promised<void>((done) => sftp.write(handle, buffer, 0, buffer.length, position, done)),
	fchmod: (sftp: SFTPWrapper, handle: Buffer, mode: number) =>
		promised<void>((done) => sftp.fchmod(handle, mode, done)),
	fchown: (sftp: SFTPWrapper, handle: Buffer, uid: number, gid: number) =>
		promised<void>((done) => sftp.fchown(handle, uid, gid, done)),
	mkdir: (sftp: SFTPWrapper, path: string) => promised<void>((done) => sftp.mkdir(path, done)),
	unlink: (sftp: SFTPWrapper, path: string) => promised<void>((done) => sftp.unlink(path, done)),
	/** Replaces the target atomically (OpenSSH's posix-rename extension; plain SFTP rename refuses an existing target). */
	rename: (sftp: SFTPWrapper, from: string, to: string) =>
		promised<void>((done) => sftp.ext_openssh_rename(from, to, done)),
};

function promised<T>(start: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		try {
			start((error, value) => {
				if (error) reject(error);
				else resolve(value as T);
			});
		} catch (error) {
			// ssh2 throws synchronously when the session is gone or the server lacks an extension.
			reject(error);
		}
	});
}
