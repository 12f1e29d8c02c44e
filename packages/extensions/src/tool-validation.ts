import { ExtensionError } from "./errors.js";
import type { ToolDefinition, ToolExposure } from "./tool-definition.js";

/** Tool names the providers accept: 1–64 letters, digits, `_` or `-`. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const EXPOSURES: readonly ToolExposure[] = ["direct", "model-only", "codemode", "deferred", "hidden"];

/**
 * Throws an `ExtensionError` (`invalid_tool`, message naming `source`) unless `definition` has a valid
 * name, an object `parameters` schema, an `execute` function and, when set, a known `exposure`.
 */
export function assertValidToolDefinition(definition: ToolDefinition, source: string): void {
	const fail = (problem: string) => {
		throw new ExtensionError("invalid_tool", source, `Extension ${source}: ${problem}`);
	};
	if (typeof definition !== "object" || definition === null) fail("registerTool expects a tool definition object");
	const name = definition.name;
	if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
		fail(`tool name ${JSON.stringify(name)} is invalid (it must match ${TOOL_NAME_PATTERN.source})`);
	}
	const parameters: unknown = definition.parameters;
	if (typeof parameters !== "object" || parameters === null || (parameters as { type?: unknown }).type !== "object") {
		fail(`tool "${name}" parameters must be an object schema (type: "object"), e.g. Type.Object({...})`);
	}
	if (typeof definition.execute !== "function") fail(`tool "${name}" has no execute function`);
	if (definition.exposure !== undefined && !EXPOSURES.includes(definition.exposure)) {
		fail(`tool "${name}" has an unknown exposure ${JSON.stringify(definition.exposure)}`);
	}
}
