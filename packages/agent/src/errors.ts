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

/** The text a thrown value contributes to an error result. */
export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	return typeof error === "string" ? error : String(error);
}
