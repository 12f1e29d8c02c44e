import type { Extension, ExtensionAPI, ToolDefinition, ToolNamespace } from "@gantry/extensions";
import type { McpConfig } from "../config/types.js";
import { McpServerConnection, type McpTool } from "./server-connection.js";
import type { McpServerStatus } from "./status.js";
import { createMcpToolDefinition } from "./tool-definition.js";
import { mcpServerNameParts, mcpToolNames } from "./tool-names.js";

/** Options of `createMcpExtension`. */
export interface McpExtensionOptions {
	/** Told about every server's status changes. A throwing listener is ignored. */
	onStatus?(server: string, status: McpServerStatus): void;
	/** Folder relative stdio `cwd`s are resolved against. Default: `process.cwd()`. */
	cwd?: string;
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

/** What `unregisterTool` looks like where the host has it (tool sources). */
type ApiWithUnregister = ExtensionAPI & { unregisterTool?(name: string): void };

/**
 * An extension that registers the tools of the configured MCP servers as `mcp__<server>__<tool>`.
 * Servers start in the background, in parallel, when the extension is added; their tools appear when
 * they are ready (so a session's start never waits), follow `tools/list_changed`, and are withdrawn
 * when a server fails or closes (calls to them then get a clear error result). Call `close()` when the
 * session ends.
 */
export function createMcpExtension(config: McpConfig, options: McpExtensionOptions = {}): McpExtension {
	const names = Object.keys(config.mcpServers);
	const parts = mcpServerNameParts(names);
	const apis: ApiWithUnregister[] = [];
	const registered = new Map<string, Map<string, ToolDefinition>>();
	const connections = names.map((name) => {
		const settings = config.mcpServers[name];
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
		const current = registered.get(connection.name) ?? new Map<string, ToolDefinition>();
		const gantryNames = mcpToolNames(
			parts.get(connection.name) ?? connection.name,
			tools.map((tool) => tool.name),
		);
		const next = new Map<string, ToolDefinition>();
		const namespace = namespaceOf(connection);
		for (const tool of tools) {
			const name = gantryNames.get(tool.name);
			if (name === undefined) continue;
			const offered = () => registered.get(connection.name)?.get(name) === definition;
			const definition: ToolDefinition = createMcpToolDefinition({
				connection,
				tool,
				name,
				namespace,
				isOffered: offered,
			});
			next.set(name, definition);
		}
		registered.set(connection.name, next);
		for (const api of apis) applyChanges(api, current, next);
	}

	function applyChanges(
		api: ApiWithUnregister,
		before: Map<string, ToolDefinition>,
		after: Map<string, ToolDefinition>,
	) {
		const canReplace = typeof api.unregisterTool === "function";
		for (const name of before.keys()) if (!after.has(name)) api.unregisterTool?.(name);
		for (const [name, definition] of after) {
			// Without tool sources a registered name cannot change; calls still reach the newest definition.
			if (before.has(name) && !canReplace) continue;
			api.registerTool(canReplace ? definition : forwarding(name, definition));
		}
	}

	/** A definition whose `execute` always runs the newest definition of `name` (for hosts without replace). */
	function forwarding(name: string, first: ToolDefinition): ToolDefinition {
		const server = first.namespace?.name ?? "";
		return {
			...first,
			execute: (toolCallId, params, signal, onUpdate, ctx) => {
				const latest = registered.get(server)?.get(name);
				if (latest === undefined)
					return Promise.resolve({
						content: [{ type: "text", text: `MCP server "${server}" no longer offers the tool "${name}".` }],
						isError: true,
					});
				return latest.execute(toolCallId, params, signal, onUpdate, ctx);
			},
		};
	}

	const summaries = (): McpServerSummary[] =>
		connections.map((connection) => ({
			name: connection.name,
			status: connection.status,
			tools: [...(registered.get(connection.name)?.keys() ?? [])],
			transport: "command" in connection.settings ? "stdio" : "http",
		}));

	let started = false;
	const extension = ((api: ExtensionAPI) => {
		apis.push(api);
		for (const tools of registered.values()) applyChanges(api, new Map(), tools);
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
