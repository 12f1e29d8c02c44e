import { withoutUndefined } from "@gantry/ai";
import type { ToolDefinition, ToolExposure, ToolNamespace } from "@gantry/extensions";
import type { TSchema } from "@sinclair/typebox";
import { trustedAnnotations } from "./annotations.js";
import { untrustedSchema } from "./linear-patterns.js";
import { boundDescription, boundResult, type OutputFolder } from "./result-bounds.js";
import { type McpToolResultDetails, mapMcpResult } from "./result-mapping.js";
import type { McpServerConnection, McpTool } from "./server-connection.js";

/** What turns one MCP tool into a Gantry tool definition. */
export interface McpToolDefinitionInput {
	connection: McpServerConnection;
	tool: McpTool;
	/** The Gantry name (`mcp__<server>__<tool>`). */
	name: string;
	namespace: ToolNamespace;
	/** Whether the server still offers the tool, read at call time. */
	isOffered(): boolean;
	/** The bound on a result's size, and where whole results over it are kept. */
	output: { maxTokens: number; folder: OutputFolder };
}

/**
 * A Gantry `ToolDefinition` that calls `tool` on its server: the server's description, input and
 * output schemas and (trusted as far as they can be) annotations; the exposure from the settings
 * (default `deferred`). Failures come back as `isError` results that say what happened.
 */
export function createMcpToolDefinition(input: McpToolDefinitionInput): ToolDefinition<TSchema, McpToolResultDetails> {
	const { connection, tool, name, namespace } = input;
	const settings = connection.settings.tools?.[tool.name];
	const exposure: ToolExposure = settings?.exposure ?? connection.settings.exposure ?? "deferred";
	const title = tool.annotations?.title ?? tool.title;
	const details: McpToolResultDetails = { server: connection.name, tool: tool.name };
	const inputSchema = untrustedSchema(tool.inputSchema);
	const definition: ToolDefinition<TSchema, McpToolResultDetails> = {
		name,
		label: typeof title === "string" && title !== "" ? title : tool.name,
		description: boundDescription(
			typeof tool.description === "string"
				? tool.description
				: `The "${tool.name}" tool of the MCP server "${connection.name}".`,
		),
		parameters: objectSchema(inputSchema.plain),
		exposure,
		namespace,
		annotations: trustedAnnotations(tool.annotations, settings?.readOnly, connection.settings.scope),
		async execute(_toolCallId, params, signal, onUpdate) {
			if (!input.isOffered()) {
				return errorResult(
					`MCP server "${connection.name}" no longer offers the tool "${tool.name}" (${connection.status.state}).`,
					details,
				);
			}
			const problems = inputSchema.checkPatterns?.(params);
			if (problems !== undefined)
				return errorResult(
					`Validation failed for tool "${name}":\n${problems.join("\n")}\n\nReceived arguments:\n${JSON.stringify(params, null, 2)}`,
					details,
				);
			try {
				const result = await connection.callTool(tool.name, params as Record<string, unknown>, {
					...withoutUndefined({ signal }),
					onProgress: (progress) => {
						const total = progress.total === undefined ? "" : `/${progress.total}`;
						const text = progress.message ?? `progress ${progress.progress}${total}`;
						onUpdate?.({ content: [{ type: "text", text }], details });
					},
				});
				const mapped = mapMcpResult(result, details);
				return await boundResult(mapped, input.output.maxTokens, input.output.folder, details);
			} catch (error) {
				if (signal?.aborted) throw error;
				return errorResult(connection.describeCallError(tool.name, error), details);
			}
		},
	};
	if (tool.outputSchema !== undefined) definition.outputSchema = objectSchema(tool.outputSchema);
	return definition;
}

function errorResult(text: string, details: McpToolResultDetails) {
	return { content: [{ type: "text" as const, text }], details, isError: true };
}

/**
 * A copy of a server's JSON Schema the validator accepts: `$schema` dropped (the validator knows one
 * draft), `type: "object"` ensured.
 */
function objectSchema(schema: unknown): TSchema {
	const copy: Record<string, unknown> = typeof schema === "object" && schema !== null ? { ...schema } : {};
	delete copy.$schema;
	copy.type = "object";
	if (typeof copy.properties !== "object" || copy.properties === null) copy.properties = {};
	return copy as unknown as TSchema;
}
