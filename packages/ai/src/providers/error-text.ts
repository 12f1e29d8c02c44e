/**
 * A one-line description of a request failure: the error's message followed by the messages of its
 * causes, so "Connection error." also says *why* (e.g. `connect ECONNREFUSED 127.0.0.1:9`).
 */
export function errorText(error: unknown): string {
	const parts: string[] = [];
	let current: unknown = error;
	for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
		const text = current instanceof Error ? current.message : String(current);
		if (text && !parts.some((part) => part.includes(text))) parts.push(text);
		current = current instanceof Error ? current.cause : undefined;
	}
	return parts.join(": ") || "Unknown error";
}

/** The text aborted requests end with. */
export const ABORTED_MESSAGE = "Request was aborted";
