// @gantry/mcp public API: McpServerConfig, McpServerSettings, McpToolSettings, McpConfig, DEFAULT_MCP_TIMEOUT_MS,
// DEFAULT_MCP_START_TIMEOUT_MS,
// loadMcpConfig, LoadMcpConfigOptions, parseMcpConfig, createMcpExtension, McpExtension, McpExtensionOptions,
// McpServerSummary, McpServerStatus, describeMcpStatus, McpServerConnection, McpServerConnectionOptions,
// McpCallOptions, McpTool, mapMcpResult, McpCallResult, McpContentBlock, McpToolResultDetails, mcpToolNames,
// mcpServerNameParts, createMcpServer, McpServerHandle, McpServerOptions, McpToolSession, McpHttpListener,
// McpHttpListenOptions, GantryMcpError,
// GantryMcpErrorCode, McpSandboxCommand.

export {
	createMcpExtension,
	type McpExtension,
	type McpExtensionOptions,
	type McpServerSummary,
} from "./client/extension.js";
export {
	type McpCallResult,
	type McpContentBlock,
	type McpToolResultDetails,
	mapMcpResult,
} from "./client/result-mapping.js";
export {
	type McpCallOptions,
	McpServerConnection,
	type McpServerConnectionOptions,
	type McpTool,
} from "./client/server-connection.js";
export { describeMcpStatus, type McpServerStatus } from "./client/status.js";
export { mcpServerNameParts, mcpToolNames } from "./client/tool-names.js";
export type { McpSandboxCommand } from "./client/transports.js";
export { type LoadMcpConfigOptions, loadMcpConfig } from "./config/load-config.js";
export { parseMcpConfig } from "./config/parse-config.js";
export {
	DEFAULT_MCP_START_TIMEOUT_MS,
	DEFAULT_MCP_TIMEOUT_MS,
	type McpConfig,
	type McpServerConfig,
	type McpServerSettings,
	type McpToolSettings,
} from "./config/types.js";
export { GantryMcpError, type GantryMcpErrorCode } from "./errors.js";
export {
	createMcpServer,
	type McpServerHandle,
	type McpServerOptions,
} from "./server/create-server.js";
export type { McpHttpListener, McpHttpListenOptions } from "./server/http-listener.js";
export type { McpToolSession } from "./server/tool-catalog.js";
