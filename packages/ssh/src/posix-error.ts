/** SFTP status codes (draft-ietf-secsh-filexfer-02) that say something about the file. */
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;

const DESCRIPTIONS: Record<string, string> = {
	ENOENT: "no such file or directory",
	EACCES: "permission denied",
	EISDIR: "illegal operation on a directory",
	ENOTDIR: "not a directory",
	EEXIST: "file already exists",
	EINVAL: "invalid argument",
	EIO: "input/output error",
};

/** An error shaped like Node's file-system errors: `code`, `syscall`, `path`, and the same message form. */
export function posixError(code: string, syscall: string, path: string, cause?: unknown): NodeJS.ErrnoException {
	const error: NodeJS.ErrnoException = new Error(`${code}: ${DESCRIPTIONS[code] ?? "failed"}, ${syscall} '${path}'`, {
		cause,
	});
	error.code = code;
	error.syscall = syscall;
	error.path = path;
	return error;
}

/** The SFTP status of an error ssh2 reported, when it carries one. */
export function sftpStatus(error: unknown): number | undefined {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === "number" ? code : undefined;
}

/**
 * Turns an SFTP failure into a POSIX-coded error. OpenSSH's server reports ENOENT and ENOTDIR as
 * "no such file" and EACCES/EPERM as "permission denied"; everything else is a bare "failure", which
 * becomes `fallback` (the caller knows what the operation's likely failure is) or EIO.
 */
export function fromSftpError(error: unknown, syscall: string, path: string, fallback = "EIO"): Error {
	const status = sftpStatus(error);
	if (status === SFTP_NO_SUCH_FILE) return posixError("ENOENT", syscall, path, error);
	if (status === SFTP_PERMISSION_DENIED) return posixError("EACCES", syscall, path, error);
	if (status !== undefined) return posixError(fallback, syscall, path, error);
	return error instanceof Error ? error : new Error(String(error));
}

export function isNoSuchFile(error: unknown): boolean {
	return sftpStatus(error) === SFTP_NO_SUCH_FILE;
}
