// tool_search: rankTools (BM25), tokenize, createToolSearchToolDefinition, TOOL_SEARCH_TOOL_NAME and its types.
export { rankTools, type SearchableTool } from "./bm25.js";
export { tokenize } from "./tokenize.js";
export {
	createToolSearchToolDefinition,
	DEFAULT_TOOL_SEARCH_LIMIT,
	TOOL_SEARCH_TOOL_NAME,
	type ToolSearchCandidate,
	type ToolSearchToolDetails,
	type ToolSearchToolInput,
	type ToolSearchToolOptions,
	toolSearchSchema,
} from "./tool-search-tool.js";
