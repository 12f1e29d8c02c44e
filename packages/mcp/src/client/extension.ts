import type { Extension, ExtensionAPI, ToolDefinition, ToolNamespace } from "@gantry/extensions";
import type { McpConfig } from "../config/types.js";
import { maxOutputTokens, OutputFolder } from "./result-bounds.js";
import { McpServerConnection, type McpTool } from "./server-connection.js";
import type { McpServerStatus } from "./status.js";
import { createMcpToolDefinition } from "./tool-definition.js";
import { mcpServerNameParts, mcpToolNames } from "./tool-names.js";
import type { McpSandboxCommand } from "./transports.js";

/** Options of `createMcpExtension`. */
export interface McpExtensionOptions {
	/** Told about every server's status changes. A throwing listener is ignored. */
	onStatus?(server: string, status: McpServerStatus): void;
	/** Folder relative stdio `cwd`s are resolved against. Default: `process.cwd()`. */
	cwd?: string;
	/**
	 * The command line that runs a stdio server inside the session's OS sandbox, for servers whose entry says
	 * `"sandbox": true` (a sandboxed workspace's `sandboxCommand` from `@gantry/sandbox`; it may wait for the
	 * session to exist). Without it such a server fails to start, saying why. Default: none.
	 */
	sandboxCommand?: McpSandboxCommand;
	/**
	 * The most (estimated) tokens one tool result may put in front of the model; a result over it keeps its
	 * start and names the file holding the whole of it. Default: `MAX_MCP_OUTPUT_TOKENS` from the
	 * environment (Claude Code's name), else 25 000.
	 */
	maxOutputTokens?: number;
	/** Where the folder of whole results is made. Default: the system's temp folder. */
	outputDir?: string;
}

/** One server as `McpExtension.servers()` lists it. */
export interface McpServerSummary {
	name: string;
	status: McpServerStatus;
	/** The Gantry names of its tools, in the server's order. */
	tools: string[];
	/** Whether the server is a command (`stdio`) or a URL (`http`). */
	transport: "stdio" | "http";
}

/** The extension, plus what a host needs around it: statuses, a bounded wait, and closing. */
export interface McpExtension extends Extension {
	/** The configured servers, in config order. */
	servers(): McpServerSummary[];
	/** Resolves when no server is `connecting` any more, or after `timeoutMs` (default: each server's timeout). */
	settled(timeoutMs?: number): Promise<McpServerSummary[]>;
	/** Process ids of the running stdio servers (for diagnostics and tests). */
	pids(): number[];
	/** Closes every server and ends their processes. */
	close(): Promise<void>;
}

/** A registered MCP tool and what it was made from (to skip re-registering unchanged tools). */
interface RegisteredMcpTool {
	definition: ToolDefinition;
	fingerprint: string;
}

/** Why a server's tools are withdrawn, for calls that still name them. */
function withdrawalReason(connection: McpServerConnection): string {
	const status = connection.status;
	if (status.state === "failed") return `the MCP server "${connection.name}" failed: ${status.error}`;
	if (status.state === "closed") return `the MCP server "${connection.name}" was closed`;
	return `the MCP server "${connection.name}" no longer lists it`;
}

/**
 * An extension that registers the tools of the configured MCP servers as `mcp__<server>__<tool>`.
 * Servers start in the background, in parallel, when the extension is added; their tools appear when
 * they are ready (a session's start never waits; its model requests and calls to a connecting server's
 * tool names do, up to the server's `startTimeoutMs`), follow `tools/list_changed`, and are withdrawn
 * when a server fails or closes (calls to them then get a clear error result). The servers are closed
 * when the last session the extension was added to is disposed (`session_shutdown`), or by `close()`.
 */
export function createMcpExtension(config: McpConfig, options: McpExtensionOptions = {}): McpExtension {
	const names = Object.keys(config.mcpServers);
	const parts = mcpServerNameParts(names);
	const apis: ExtensionAPI[] = [];
	const registered = new Map<string, Map<string, RegisteredMcpTool>>();
	const output = {
		maxTokens: maxOutputTokens(options.maxOutputTokens, process.env),
		folder: new OutputFolder(options.outputDir),
	};
	const connections = names.map((name) => {
		const settings = config.mcpServers[name];
		if (settings === undefined) throw new Error(`MCP server ${name} is listed but has no settings`);
		const connection: McpServerConnection = new McpServerConnection(name, settings, {
			cwd: options.cwd ?? process.cwd(),
			onStatus: (status) => {
				try {
					options.onStatus?.(name, status);
				} catch {
					// A broken status listener must not break the server.
				}
			},
			onToolsChanged: (tools) => syncTools(connection, tools),
			...(options.sandboxCommand ? { sandboxCommand: options.sandboxCommand } : {}),
		});
		registered.set(name, new Map());
		return connection;
	});

	const namespaceOf = (connection: McpServerConnection): ToolNamespace => {
		const namespace: ToolNamespace = { name: connection.name };
		const info = connection.serverInfo;
		if (info !== undefined) namespace.description = `MCP server ${info.title ?? info.name} ${info.version}`;
		const instructions = connection.instructions;
		if (instructions !== undefined && instructions.trim() !== "") namespace.instructions = instructions;
		return namespace;
	};

	function syncTools(connection: McpServerConnection, tools: readonly McpTool[]): void {
		const current = registered.get(connection.name) ?? new Map<string, RegisteredMcpTool>();
		const gantryNames = mcpToolNames(
			parts.get(connection.name) ?? connection.name,
			tools.map((tool) => tool.name),
		);
		const next = new Map<string, RegisteredMcpTool>();
		const namespace = namespaceOf(connection);
		for (const tool of tools) {
			const name = gantryNames.get(tool.name);
			if (name === undefined) continue;
			const fingerprint = JSON.stringify([tool, namespace]);
			const kept = current.get(name);
			if (kept !== undefined && kept.fingerprint === fingerprint) {
				next.set(name, kept);
				continue;
			}
			const isOffered = () => registered.get(connection.name)?.get(name)?.definition === definition;
			const definition: ToolDefinition = createMcpToolDefinition({
				connection,
				tool,
				name,
				namespace,
				isOffered,
				output,
			});
			next.set(name, { definition, fingerprint });
		}
		registered.set(connection.name, next);
		const reason = withdrawalReason(connection);
		for (const api of apis) applyChanges(api, current, next, reason);
	}

	function applyChanges(
		api: ExtensionAPI,
		before: Map<string, RegisteredMcpTool>,
		after: Map<string, RegisteredMcpTool>,
		reason: string,
	): void {
		for (const name of before.keys()) if (!after.has(name)) api.unregisterTool(name, reason);
		// Registering a name again replaces the tool in its place, so the others keep their order.
		for (const [name, entry] of after) if (before.get(name) !== entry) api.registerTool(entry.definition);
	}

	const summaries = (): McpServerSummary[] =>
		connections.map((connection) => ({
			name: connection.name,
			status: connection.status,
			tools: [...(registered.get(connection.name)?.keys() ?? [])],
			transport: "command" in connection.settings ? "stdio" : "http",
		}));

	/** The servers still connecting that may own `toolName` (`mcp__<server part>__…`). */
	const connectingOwners = (toolName: string): McpServerConnection[] =>
		connections.filter(
			(connection) =>
				connection.status.state === "connecting" &&
				toolName.startsWith(`mcp__${parts.get(connection.name) ?? connection.name}__`),
		);

	let started = false;
	const extension = ((api: ExtensionAPI) => {
		apis.push(api);
		// A prompt sent right after the session started must see the servers still connecting: each model
		// request, and each call to a connecting server's tool name, waits for them (bounded by each server's
		// `startTimeoutMs` from its start, so only the first requests ever wait).
		api.on("turn_start", async (_event, ctx) => {
			await Promise.all(connections.map((connection) => connection.startWait(ctx.signal)));
		});
		api.on("tool_execution_start", async (event, ctx) => {
			await Promise.all(connectingOwners(event.toolName).map((connection) => connection.startWait(ctx.signal)));
		});
		// The servers live as long as the sessions that use them: the last one to end closes them.
		api.on("session_shutdown", async () => {
			const index = apis.indexOf(api);
			if (index === -1) return;
			apis.splice(index, 1);
			if (apis.length === 0) await extension.close();
		});
		for (const connection of connections)
			applyChanges(api, new Map(), registered.get(connection.name) ?? new Map(), withdrawalReason(connection));
		if (started) return;
		started = true;
		for (const connection of connections) void connection.start();
	}) as McpExtension;
	extension.servers = summaries;
	extension.settled = async (timeoutMs) => {
		await Promise.all(connections.map((connection) => connection.settled(timeoutMs)));
		return summaries();
	};
	extension.pids = () =>
		connections.flatMap((connection) =>
			connection.pid !== undefined && connection.status.state === "ready" ? [connection.pid] : [],
		);
	extension.close = async () => {
		await Promise.all(connections.map((connection) => connection.close()));
	};
	return extension;
}
