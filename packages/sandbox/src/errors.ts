import { GantryError } from "@gantry/ai";

/** What went wrong, for code: a bad `sandbox` setting, or a workspace the sandbox cannot wrap. */
export type SandboxErrorCode = "invalid_option" | "not_local";

/** A configuration error of `@gantry/sandbox`: says what is wrong and how to write it instead. */
export class SandboxError extends GantryError<SandboxErrorCode> {
	constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "SandboxError";
	}
}
