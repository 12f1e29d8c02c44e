import type { AgentToolCallOutcome } from "@gantry/agent";
import type { ToolDefinition } from "@gantry/extensions";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

/** A Gantry tool as MCP's `tools/list` describes it. */
export function toMcpTool(definition: ToolDefinition): McpTool {
	const tool: McpTool = {
		name: definition.name,
		title: definition.label,
		description: definition.description,
		inputSchema: plainSchema(definition.parameters) as McpTool["inputSchema"],
	};
	if (definition.outputSchema !== undefined)
		tool.outputSchema = plainSchema(definition.outputSchema) as McpTool["outputSchema"];
	const hints = definition.annotations;
	if (hints !== undefined || definition.label !== "") {
		tool.annotations = { title: definition.label };
		if (hints?.readOnlyHint !== undefined) tool.annotations.readOnlyHint = hints.readOnlyHint;
		if (hints?.destructiveHint !== undefined) tool.annotations.destructiveHint = hints.destructiveHint;
		if (hints?.idempotentHint !== undefined) tool.annotations.idempotentHint = hints.idempotentHint;
		if (hints?.openWorldHint !== undefined) tool.annotations.openWorldHint = hints.openWorldHint;
	}
	return tool;
}

/** `_meta` key of a result whose call was blocked before it ran (by the server's permission policy or a hook). */
export const BLOCKED_META_KEY = "gantry/blocked";

/** A Gantry call outcome as MCP's `CallToolResult`. */
export function toMcpResult(outcome: AgentToolCallOutcome, declaresOutput: boolean): CallToolResult {
	const content: CallToolResult["content"] = outcome.result.content.map((block) =>
		block.type === "text"
			? { type: "text", text: block.text }
			: { type: "image", data: block.data, mimeType: block.mimeType },
	);
	const result: CallToolResult = { content };
	const structured = outcome.result.structuredContent;
	if (typeof structured === "object" && structured !== null && !Array.isArray(structured))
		result.structuredContent = structured as Record<string, unknown>;
	if (outcome.isError) result.isError = true;
	// Said, not left to be guessed from the text: the permission policy or a hook refused the call.
	if (outcome.blocked) result._meta = { [BLOCKED_META_KEY]: true };
	// MCP clients reject a success without structuredContent when the tool declares an output schema.
	if (declaresOutput && !outcome.isError && result.structuredContent === undefined) {
		result.isError = true;
		result.content.push({
			type: "text",
			text: "The tool returned no structured content although it declares an output schema.",
		});
	}
	return result;
}

/** A JSON copy of a TypeBox schema (symbol keys dropped, `type: "object"` ensured). */
function plainSchema(schema: unknown): Record<string, unknown> {
	const copy = JSON.parse(JSON.stringify(schema ?? {})) as Record<string, unknown>;
	copy.type = "object";
	return copy;
}
