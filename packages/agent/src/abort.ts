/** The text every Gantry package uses for work stopped by an abort signal. */
export const ABORTED_TEXT = "Operation aborted";

/**
 * Throws `Error("Operation aborted")` (or `new Error(message)`) when `signal` is aborted; does nothing
 * otherwise. The one abort check of Gantry's packages, so a stopped call always reads the same.
 *
 * @example
 * for (const file of files) { throwIfAborted(signal); await copy(file); }
 */
export function throwIfAborted(signal: AbortSignal | undefined, message: string = ABORTED_TEXT): void {
	if (signal?.aborted) throw new Error(message);
}
