// How the builtins read a file-system error's code (its text comes from `errorText` of @gantry/ai).

/** The POSIX code of a file-system error (`ENOENT`, `EACCES`, …), when it has one. */
export function errorCode(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null | undefined)?.code;
	return typeof code === "string" ? code : undefined;
}
