/**
 * The brand every Gantry error carries. `Symbol.for` makes it the same symbol in every copy of every
 * Gantry package loaded into one process, so `isGantryError` recognises an error thrown by another copy
 * (a second install, a bundled CLI) where `instanceof` would say no.
 */
export const GANTRY_ERROR_BRAND: unique symbol = Symbol.for("gantry.error") as never;

/**
 * The base of every error class Gantry's packages throw: a `code` (each class has its own string union)
 * and an optional `cause`. Subclasses set their own `name` (`GantryAiError`, `SshError`, …); recognise
 * them with `isGantryError`, which works across package copies, rather than `instanceof GantryError`.
 */
export class GantryError<Code extends string = string> extends Error {
	readonly code: Code;

	constructor(code: Code, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "GantryError";
		this.code = code;
	}
}

// On the prototype, not on each instance: errors keep their own properties as they were.
Object.defineProperty(GantryError.prototype, GANTRY_ERROR_BRAND, { value: true });

/**
 * Whether `error` is an error of a Gantry package (any class, any copy of the package): it carries the
 * `Symbol.for("gantry.error")` brand. Then `code`, `name` and `message` are strings.
 *
 * @example
 * catch (error) { if (isGantryError(error) && error.code === "invalid_option") … }
 */
export function isGantryError(error: unknown): error is GantryError {
	if (typeof error !== "object" || error === null) return false;
	try {
		return (error as { [GANTRY_ERROR_BRAND]?: unknown })[GANTRY_ERROR_BRAND] === true;
	} catch {
		// A proxy whose get trap throws is not ours.
		return false;
	}
}

/**
 * The text a thrown value contributes to a message or an error result: an `Error`'s message (its name
 * when the message is empty), an error-like object's string `message`, a string as it is, anything else
 * through `String`. The one error-to-text helper of Gantry's packages. Never throws (a value whose
 * `toString` throws reads as its type).
 *
 * @example
 * catch (error) { return { content: [{ type: "text", text: errorText(error) }], isError: true }; }
 */
export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	if (typeof error === "string") return error;
	try {
		const message = (error as { message?: unknown } | null | undefined)?.message;
		if (typeof message === "string" && message !== "") return message;
		return String(error);
	} catch {
		return `a thrown ${typeof error}`;
	}
}
