/** Codes of the programmer errors `@gantry/agent` throws (runtime failures are values, never thrown). */
export type GantryAgentErrorCode = "agent_busy" | "missing_model" | "nothing_to_continue" | "cannot_continue";

/** A programmer error: the agent or loop was used in a way that cannot work. */
export class GantryAgentError extends Error {
	readonly code: GantryAgentErrorCode;
	constructor(code: GantryAgentErrorCode, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "GantryAgentError";
		this.code = code;
	}
}

/**
 * The text a thrown value contributes to an error result: an `Error`'s message (its name when the
 * message is empty), a string as it is, anything else through `String`. The one error-to-text helper of
 * Gantry's packages. Never throws (a value whose `toString` throws reads as its type).
 *
 * @example
 * catch (error) { return { content: [{ type: "text", text: errorText(error) }], isError: true }; }
 */
export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	if (typeof error === "string") return error;
	try {
		return String(error);
	} catch {
		return `a thrown ${typeof error}`;
	}
}
