import { elideMiddle, MAX_ERROR_TEXT_CHARS } from "@gantry/agent";
import { errorText } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import type { TSchema } from "@sinclair/typebox";

/** `error` with its message cut to `MAX_ERROR_TEXT_CHARS` in the middle; the same error when it is short enough. */
export function boundedError(error: unknown): unknown {
	const message = errorText(error);
	if (message.length <= MAX_ERROR_TEXT_CHARS && error instanceof Error) return error;
	const bounded = new Error(elideMiddle(message, MAX_ERROR_TEXT_CHARS));
	const code = (error as { code?: unknown } | null | undefined)?.code;
	if (typeof code === "string") Object.assign(bounded, { code });
	return bounded;
}

/**
 * `defineTool` for the builtins: the same tool, except that an error its `execute` throws has at most
 * `MAX_ERROR_TEXT_CHARS` characters. A huge path or argument echoed in a message is elided in the middle, so
 * its start and its end stay readable.
 */
export function defineBoundedTool<TParams extends TSchema, TDetails = unknown>(
	definition: ToolDefinition<TParams, TDetails>,
): ToolDefinition<TParams, TDetails> {
	const execute = definition.execute;
	return {
		...definition,
		async execute(...args) {
			try {
				return await execute.apply(definition, args);
			} catch (error) {
				throw boundedError(error);
			}
		},
	};
}
