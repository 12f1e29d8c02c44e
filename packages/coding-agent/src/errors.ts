import { GantryError } from "@gantry/ai";

/** Codes of the programmer and configuration errors `@gantry/coding-agent` throws. */
export type CodingAgentErrorCode =
	| "invalid_option"
	| "invalid_transcript"
	| "session_disposed"
	| "busy"
	/** `session.compact()` found nothing to summarise yet, or the summary request failed. */
	| "compaction_failed";

/** A programmer or configuration error of `@gantry/coding-agent` (tool and model failures are never thrown). */
export class CodingAgentError extends GantryError<CodingAgentErrorCode> {
	constructor(code: CodingAgentErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "CodingAgentError";
	}
}
