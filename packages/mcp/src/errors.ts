import { GantryError } from "@gantry/ai";

/** What went wrong, for callers that branch on it. */
export type GantryMcpErrorCode =
	| "invalid_config"
	| "server_not_found"
	| "server_unavailable"
	| "connection_failed"
	| "invalid_argument";

/** The one error class of `@gantry/mcp`; the message says what was wrong and how to fix it. */
export class GantryMcpError extends GantryError<GantryMcpErrorCode> {
	constructor(code: GantryMcpErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "GantryMcpError";
	}
}
