import type { ImageContent, JsonValue, TextContent, Usage } from "@gantry/ai";

/** The fields a result hook may rewrite (`afterToolCall`, `tool_result`). */
export interface ToolResultFields {
	content?: (TextContent | ImageContent)[];
	structuredContent?: JsonValue;
	details?: unknown;
	usage?: Usage;
	isError?: boolean;
	terminate?: boolean;
}

/**
 * The one merge rule of result hooks, field by field (no deep merge): a field the override sets to a
 * value other than `undefined` replaces the result's field; a field that is absent or `undefined`
 * keeps it (so `{ details: undefined }` changes nothing). `content` without `structuredContent` drops
 * the result's `structuredContent`, which no longer matches the rewritten text. Returns a new object,
 * or `result` itself when the override changes nothing.
 *
 * @example
 * mergeToolResult({ content: [a], details: 1 }, { content: [b], details: undefined }); // { content: [b], details: 1 }
 */
export function mergeToolResult<TResult extends ToolResultFields>(
	result: TResult,
	override: Readonly<ToolResultFields> | undefined | null,
): TResult {
	if (override === undefined || override === null) return result;
	let merged: TResult | undefined;
	const write = <TKey extends keyof ToolResultFields>(key: TKey, value: ToolResultFields[TKey]) => {
		merged ??= { ...result };
		(merged as ToolResultFields)[key] = value;
	};
	if (override.content !== undefined) {
		write("content", override.content);
		if (override.structuredContent === undefined && merged !== undefined && "structuredContent" in merged) {
			delete (merged as ToolResultFields).structuredContent;
		}
	}
	if (override.structuredContent !== undefined) write("structuredContent", override.structuredContent);
	if (override.details !== undefined) write("details", override.details);
	if (override.usage !== undefined) write("usage", override.usage);
	if (override.isError !== undefined) write("isError", override.isError);
	if (override.terminate !== undefined) write("terminate", override.terminate);
	return merged ?? result;
}
