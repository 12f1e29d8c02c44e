import { errorText } from "../gantry-error.js";

/**
 * A one-line description of a request failure: the error's text (`errorText`) followed by the texts of
 * its causes, so "Connection error." also says *why* (e.g. `connect ECONNREFUSED 127.0.0.1:9`).
 */
export function failureText(error: unknown): string {
	const parts: string[] = [];
	let current: unknown = error;
	for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
		// A link without a message of its own adds nothing (its class name would only be noise).
		const text = current instanceof Error && current.message === "" ? "" : errorText(current);
		if (text && !parts.some((part) => part.includes(text))) parts.push(text);
		current = current instanceof Error ? current.cause : undefined;
	}
	return parts.join(": ") || "Unknown error";
}

/** The text aborted requests end with. */
export const ABORTED_MESSAGE = "Request was aborted";
