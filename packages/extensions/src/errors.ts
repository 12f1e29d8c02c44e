import { GantryError } from "@gantry/ai";

/**
 * Codes of the errors `@gantry/extensions` throws or reports:
 * - `invalid_tool`: `registerTool` got a bad name, a non-object `parameters` schema, a missing `execute`,
 *   or an unknown `exposure`;
 * - `invalid_handler`: `on` got an unknown event name or a handler that is not a function;
 * - `extension_failed`: an extension function threw (or rejected) while `runner.add` ran it;
 * - `module_not_found`: `loadExtensions` found no file at the path;
 * - `invalid_module`: the module loaded but its default export is not a function;
 * - `load_failed`: the module threw while it was being loaded (syntax error, failing import, top-level throw).
 */
export type ExtensionErrorCode =
	| "invalid_tool"
	| "invalid_handler"
	| "extension_failed"
	| "module_not_found"
	| "invalid_module"
	| "load_failed";

/** A programmer or configuration error of an extension; the message names the extension (its path or name). */
export class ExtensionError extends GantryError<ExtensionErrorCode> {
	/** The extension's path, or the name it was added under. */
	readonly source: string;
	constructor(code: ExtensionErrorCode, source: string, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "ExtensionError";
		this.source = source;
	}
}
