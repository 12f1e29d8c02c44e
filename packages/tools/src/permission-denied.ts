/** Whether a file-system error means the file (or its folder) may not be changed. */
export function isPermissionDenied(error: unknown): boolean {
	const code = (error as { code?: unknown } | null | undefined)?.code;
	return code === "EACCES" || code === "EPERM" || code === "EROFS";
}

/**
 * The one refusal `write` and `edit` give for a file they may not change: a read-only file (root
 * included), or one this user may not write (or whose folder it may not write).
 */
export function permissionDeniedError(displayPath: string): Error {
	return new Error(
		`Permission denied: ${displayPath} may not be written (the file is read-only, or this user may not write it or its folder); it was left unchanged. Make it writable first (e.g. chmod u+w) if it should change.`,
	);
}
