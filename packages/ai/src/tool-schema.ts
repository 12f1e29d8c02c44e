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
	// A grammar tool declared as a function tool: its one string argument, strict where supported.
	const required = sampling.type === "json_schema" && sampling.strict === "require";
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

/**
 * The name of the one string argument of a tool that asks for grammar-constrained sampling, or undefined
 * for any other tool. Such a tool's schema must have exactly one property, a required string.
 */
export function freeformArgumentName(tool: Tool): string | undefined {
	if (tool.constrainedSampling === undefined || tool.constrainedSampling === false) return undefined;
	if (tool.constrainedSampling.type !== "grammar") return undefined;
	const schema = tool.parameters as {
		type?: unknown;
		properties?: Record<string, { type?: unknown }>;
		required?: unknown;
	};
	const names = Object.keys(schema.properties ?? {});
	if (schema.type !== "object" || names.length !== 1) return undefined;
	const [name] = names;
	if (name === undefined) return undefined;
	const required = Array.isArray(schema.required) && schema.required.includes(name);
	return required && schema.properties?.[name]?.type === "string" ? name : undefined;
}

/** Whether the model's endpoint takes freeform (custom) tools: by default OpenAI's own Responses API. */
export function supportsFreeformTools(model: Model): boolean {
	return model.compat?.supportsFreeformTools ?? (model.provider === "openai" && model.api === "openai-responses");
}
