/** What went wrong, for callers that branch on it. */
export type GantryMcpErrorCode =
	| "invalid_config"
	| "server_not_found"
	| "server_unavailable"
	| "connection_failed"
	| "invalid_argument";

/** The one error class of `@gantry/mcp`; the message says what was wrong and how to fix it. */
export class GantryMcpError extends Error {
	readonly code: GantryMcpErrorCode;

	constructor(code: GantryMcpErrorCode, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "GantryMcpError";
		this.code = code;
	}
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return typeof error === "string" ? error : JSON.stringify(error);
}
