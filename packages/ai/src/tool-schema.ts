import { GantryAiError, UnsupportedStrictJsonSchemaError } from "./errors.js";
import { makeStrictJsonSchema, toPlainJsonSchema } from "./json-schema.js";
import type { Model, Tool } from "./types.js";

/** Whether the model's endpoint accepts `strict: true` tools. Default: true for provider `"openai"` only. */
export function supportsStrictMode(model: Model): boolean {
	return model.compat?.supportsStrictMode ?? model.provider === "openai";
}

/**
 * The JSON Schema a provider declares for `tool`, and whether to send it with `strict: true`.
 *
 * Strict mode is used when the tool asks for it (`constrainedSampling.strict` is `"prefer"` or
 * `"require"`), the model supports it (see {@link supportsStrictMode}) and the schema can be made strict
 * ({@link makeStrictJsonSchema}). With `"prefer"` any obstacle silently falls back to the plain schema.
 *
 * @throws GantryAiError (code `"unsupported_strict_schema"`) when the tool says `"require"` and strict
 * mode cannot be used; the message names the tool and the reason. Providers turn this into a failed
 * request (`stopReason: "error"`).
 */
export function toolToJsonSchema(tool: Tool, model: Model): { parameters: Record<string, unknown>; strict: boolean } {
	const plain = { parameters: toPlainJsonSchema(tool.parameters), strict: false };
	const sampling = tool.constrainedSampling;
	if (!sampling) return plain;
	const required = sampling.strict === "require";
	if (!supportsStrictMode(model)) {
		if (!required) return plain;
		throw new GantryAiError(
			"unsupported_strict_schema",
			`Tool "${tool.name}" requires strict constrained sampling, but model "${model.id}" (provider "${model.provider}") does not support strict mode`,
		);
	}
	try {
		return { parameters: makeStrictJsonSchema(tool.parameters), strict: true };
	} catch (error) {
		if (!(error instanceof UnsupportedStrictJsonSchemaError)) throw error;
		if (!required) return plain;
		throw new GantryAiError(
			"unsupported_strict_schema",
			`Tool "${tool.name}" requires strict constrained sampling, but its schema cannot be made strict: ${error.message}`,
			{ cause: error },
		);
	}
}
