import { GantryError } from "./gantry-error.js";

/** Codes of the programmer and configuration errors `@gantry/ai` throws. */
export type GantryAiErrorCode =
	| "unknown_api"
	| "unknown_model"
	| "missing_api_key"
	| "unsupported_strict_schema"
	| "invalid_argument";

/** A programmer or configuration error of `@gantry/ai` (runtime model failures are never thrown). */
export class GantryAiError extends GantryError<GantryAiErrorCode> {
	constructor(code: GantryAiErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "GantryAiError";
	}
}

/** A JSON Schema uses a construct that providers' strict mode cannot express. */
export class UnsupportedStrictJsonSchemaError extends GantryAiError {
	/** JSON-pointer-like path of the offending construct, e.g. `/properties/edits/items`. */
	readonly path: string;
	constructor(message: string, path: string) {
		super("unsupported_strict_schema", path ? `${message} (at ${path})` : message);
		this.name = "UnsupportedStrictJsonSchemaError";
		this.path = path;
	}
}
