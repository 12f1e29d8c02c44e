import type { AgentToolResult } from "@gantry/agent";
import type { ToolDefinition } from "@gantry/extensions";
import { type Static, Type } from "@sinclair/typebox";
import { rankTools, type SearchableTool } from "./bm25.js";

/** How many tools one search loads when the call gives no `limit`. */
export const DEFAULT_TOOL_SEARCH_LIMIT = 8;

export const toolSearchSchema = Type.Object({
	query: Type.String({ description: "What the tool should do, or its name: keywords work best." }),
	limit: Type.Optional(
		Type.Integer({ minimum: 1, description: `How many tools to load at most (default ${DEFAULT_TOOL_SEARCH_LIMIT}).` }),
	),
});

export type ToolSearchToolInput = Static<typeof toolSearchSchema>;

/** A tool that search may load: an inactive tool whose exposure is `codemode` or `deferred`. */
export type ToolSearchCandidate = SearchableTool;

export interface ToolSearchToolDetails {
	/** Names of the tools this call added to the active set, best match first. */
	loaded: string[];
}

export interface ToolSearchToolOptions {
	/**
	 * The tools a search may load, read at each call: the registered tools with exposure `codemode`
	 * or `deferred` that are not active. May throw (the call then fails).
	 */
	getCandidates(): readonly ToolSearchCandidate[];
	/**
	 * Appends the matched tools to the active set; they are declared from the next model request.
	 * Receives the names best first. May throw (the call then fails).
	 */
	activate(names: string[]): void;
}

const DESCRIPTION = [
	"Search the tools that are not loaded yet and load the best matches.",
	"Ranks tools by name, description, parameters and namespace; a query equal to a tool's name loads that tool.",
	"Loaded tools can be called from your next step on.",
].join(" ");

/** The name of the tool-search builtin. */
export const TOOL_SEARCH_TOOL_NAME = "tool_search";

/**
 * The `tool_search` builtin: ranks the candidates with BM25 and activates the matches. Exposure
 * `model-only`, inactive until named — except that a session declares it whenever deferred tools are
 * registered (they are unreachable otherwise). No match is a normal result (`No matching tools found.`); an
 * empty query or a `limit` that is not a positive integer throws (an error result).
 */
export function createToolSearchToolDefinition(
	options: ToolSearchToolOptions,
): ToolDefinition<typeof toolSearchSchema, ToolSearchToolDetails> {
	return {
		name: TOOL_SEARCH_TOOL_NAME,
		label: "Tool search",
		description: DESCRIPTION,
		promptSnippet: "Find and load more tools by keyword",
		parameters: toolSearchSchema,
		exposure: "model-only",
		defaultActive: false,
		annotations: { readOnlyHint: true, idempotentHint: true },
		async execute(_toolCallId, params): Promise<AgentToolResult<ToolSearchToolDetails>> {
			const query = typeof params.query === "string" ? params.query.trim() : "";
			if (query === "") throw new Error("tool_search needs a non-empty query.");
			const limit = params.limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
			if (!Number.isInteger(limit) || limit < 1) {
				throw new Error(`tool_search: limit must be a positive integer (got ${JSON.stringify(params.limit)}).`);
			}
			const matches = rankTools(options.getCandidates(), query, limit);
			if (matches.length === 0) {
				return { content: [{ type: "text", text: "No matching tools found." }], details: { loaded: [] } };
			}
			const loaded = matches.map((tool) => tool.name);
			options.activate(loaded);
			const lines = matches.map((tool) => `- ${tool.name} — ${firstLine(tool.description)}`);
			const text = [`Loaded ${loaded.length} tool(s):`, ...lines, "They can be called from your next step."].join("\n");
			return { content: [{ type: "text", text }], details: { loaded } };
		},
	};
}

function firstLine(text: string): string {
	const line = text.trim().split("\n", 1)[0] ?? "";
	return line === "" ? "(no description)" : line;
}
