import type { ToolExposure } from "@gantry/extensions";

/** How to start or reach one MCP server: a local command (stdio) or a URL (Streamable HTTP, SSE fallback). */
export type McpServerConfig =
	| {
			/** The executable; found on `PATH`. */
			command: string;
			args?: string[];
			/** Added to a small inherited environment (`PATH`, `HOME`, …), not the whole of Gantry's. */
			env?: Record<string, string>;
			/** Working folder of the process. Default: the session's. */
			cwd?: string;
			/**
			 * Run the server in the session's OS sandbox (Gantry's `sandbox` settings), held to the same
			 * filesystem and network lists as its commands. A server that asks for it does not start when
			 * the session has no active sandbox. Default false.
			 */
			sandbox?: boolean;
	  }
	| {
			type: "http";
			/** The server's MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
			url: string;
			/** Sent with every request (e.g. `Authorization`). */
			headers?: Record<string, string>;
	  };

/** Per-tool settings of one server, by the tool's name on that server. */
export interface McpToolSettings {
	/** Overrides the server's `exposure` for this tool. */
	exposure?: ToolExposure;
	/**
	 * What the user says about the tool, over the server's untrusted `readOnlyHint`: `true` lets it run
	 * without approval, `false` always asks. Default: the server's hint.
	 */
	readOnly?: boolean;
}

/** One server's entry: how to reach it, plus Gantry's settings. */
export type McpServerSettings = McpServerConfig & {
	/** How the model reaches the server's tools. Default `"deferred"` (found with `tool_search`). */
	exposure?: ToolExposure;
	tools?: Record<string, McpToolSettings>;
	/** Per call, in milliseconds; every progress notification restarts it. Default 60 000. */
	timeoutMs?: number;
	/**
	 * How long, in milliseconds from the server's start, a session's model requests and calls to this
	 * server's tools wait for it while it is still connecting (after that they go on without it; the server
	 * may still become ready later). Default 10 000.
	 */
	startTimeoutMs?: number;
	/** Leaves the server out without deleting its entry. */
	disabled?: boolean;
	/**
	 * Where the entry came from, set by `loadMcpConfig` (a file cannot choose it): `"project"` for a
	 * folder's `.mcp.json`, whose servers nobody vetted, so their tools' annotations count for nothing
	 * and every call asks until a rule allows it. Default `"user"`.
	 */
	scope?: "user" | "project";
};

/** The shape of Claude Code's and Cursor's `.mcp.json`. */
export interface McpConfig {
	mcpServers: Record<string, McpServerSettings>;
}

/** The default per-call timeout. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** The default bound on how long a session waits for a server that is still starting. */
export const DEFAULT_MCP_START_TIMEOUT_MS = 10_000;
