import { GantryError } from "@gantry/ai";

/** Codes of the programmer errors `@gantry/agent` throws (runtime failures are values, never thrown). */
export type GantryAgentErrorCode = "agent_busy" | "missing_model" | "nothing_to_continue" | "cannot_continue";

/** A programmer error: the agent or loop was used in a way that cannot work. */
export class GantryAgentError extends GantryError<GantryAgentErrorCode> {
	constructor(code: GantryAgentErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "GantryAgentError";
	}
}

/** The one error-to-text helper of Gantry's packages, defined in `@gantry/ai` (re-exported here as before). */
export { errorText } from "@gantry/ai";
