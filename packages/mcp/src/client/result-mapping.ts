import type { AgentToolResult } from "@gantry/agent";
import type { ImageContent, JsonValue, TextContent } from "@gantry/ai";

/** One block of an MCP `tools/call` result, loosely typed: servers are untrusted. */
export interface McpContentBlock {
	type: string;
	[key: string]: unknown;
}

/** The parts of an MCP `CallToolResult` that Gantry maps. */
export interface McpCallResult {
	content?: McpContentBlock[];
	structuredContent?: Record<string, unknown>;
	isError?: boolean;
	/** Old servers answer `{ toolResult }` instead (protocol 2024-10-07). */
	toolResult?: unknown;
}

/** What an MCP tool's result carries in `details`. */
export interface McpToolResultDetails {
	server: string;
	tool: string;
}

/**
 * Maps an MCP result to the tool result the model sees: text and images as they are; audio, resource
 * links and embedded resources as text naming their URI and type (embedded images as images);
 * `structuredContent` and `isError` carried over. A result with only `structuredContent` gets its JSON
 * as text, so models without structured output still read it.
 */
export function mapMcpResult(
	result: McpCallResult,
	details: McpToolResultDetails,
): AgentToolResult<McpToolResultDetails> {
	const content: (TextContent | ImageContent)[] = [];
	for (const block of Array.isArray(result.content) ? result.content : []) content.push(mapBlock(block));
	if (result.toolResult !== undefined && content.length === 0)
		content.push({ type: "text", text: textOf(result.toolResult) });
	const mapped: AgentToolResult<McpToolResultDetails> = { content, details };
	const structured = result.structuredContent;
	if (typeof structured === "object" && structured !== null && !Array.isArray(structured)) {
		mapped.structuredContent = structured as JsonValue;
		if (content.length === 0) content.push({ type: "text", text: JSON.stringify(structured) });
	}
	if (result.isError === true) mapped.isError = true;
	return mapped;
}

function mapBlock(block: McpContentBlock): TextContent | ImageContent {
	switch (block.type) {
		case "text":
			return { type: "text", text: typeof block.text === "string" ? block.text : textOf(block.text) };
		case "image":
			if (typeof block.data === "string" && typeof block.mimeType === "string")
				return { type: "image", data: block.data, mimeType: block.mimeType };
			return { type: "text", text: "[an image block without data or mimeType]" };
		case "audio":
			return { type: "text", text: `[audio, ${describeData(block.mimeType, block.data)}; not shown to the model]` };
		case "resource_link":
			return { type: "text", text: describeLink(block) };
		case "resource":
			return mapEmbedded(block.resource);
		default:
			return { type: "text", text: `[a "${String(block.type)}" block: ${textOf(block)}]` };
	}
}

function mapEmbedded(resource: unknown): TextContent | ImageContent {
	if (typeof resource !== "object" || resource === null) return { type: "text", text: "[an empty embedded resource]" };
	const { uri, mimeType, text, blob } = resource as Record<string, unknown>;
	const where = typeof uri === "string" ? uri : "(no uri)";
	if (typeof text === "string") return { type: "text", text: `Resource ${where}${mimeSuffix(mimeType)}:\n${text}` };
	if (typeof blob === "string" && typeof mimeType === "string" && mimeType.startsWith("image/"))
		return { type: "image", data: blob, mimeType };
	return { type: "text", text: `[resource ${where}, ${describeData(mimeType, blob)}]` };
}

function describeLink(block: McpContentBlock): string {
	const name = typeof block.name === "string" ? block.name : "resource";
	const parts = [`Resource link: ${name} <${String(block.uri)}>${mimeSuffix(block.mimeType)}`];
	if (typeof block.description === "string" && block.description !== "") parts.push(block.description);
	return parts.join(" — ");
}

function mimeSuffix(mimeType: unknown): string {
	return typeof mimeType === "string" ? ` (${mimeType})` : "";
}

function describeData(mimeType: unknown, data: unknown): string {
	const type = typeof mimeType === "string" ? mimeType : "unknown type";
	const bytes = typeof data === "string" ? Math.floor((data.length * 3) / 4) : 0;
	return `${type}, about ${bytes} bytes`;
}

function textOf(value: unknown): string {
	if (typeof value === "string") return value;
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
