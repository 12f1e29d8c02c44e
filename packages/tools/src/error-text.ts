// The one way the builtins turn a thrown value into text and read a file-system error's code.

/** The message of an `Error`, or the thrown value as text. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The POSIX code of a file-system error (`ENOENT`, `EACCES`, …), when it has one. */
export function errorCode(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null | undefined)?.code;
	return typeof code === "string" ? code : undefined;
}
