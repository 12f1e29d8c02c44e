import type { AgentToolResult } from "@gantry/agent";
import { withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../package-info.js";
import { listenHttp, type McpHttpListener, type McpHttpListenOptions } from "./http-listener.js";
import { toMcpResult, toMcpTool } from "./served-tools.js";
import { definitionsCatalog, type McpToolSession, sessionCatalog, type ToolCatalog } from "./tool-catalog.js";

/** Options of `createMcpServer`. */
export interface McpServerOptions {
	/** Plain definitions (validation and `execute` only), or a session (its callable tools, its hooks and permission policy). */
	tools: ToolDefinition[] | McpToolSession;
	/** Reported to clients. Default `"gantry"`. */
	name?: string;
	version?: string;
	/** Sent to clients as the server's instructions. */
	instructions?: string;
}

/** A running MCP server over Gantry's tools; every client connection gets its own protocol session. */
export interface McpServerHandle {
	/** Serves one client over any SDK transport. */
	connect(transport: Transport): Promise<void>;
	/** Serves one client over this process's stdin and stdout. */
	listenStdio(): Promise<void>;
	/** Serves Streamable HTTP at `http://host:port/mcp` (default host 127.0.0.1, port 0 = any free one). */
	listenHttp(options?: McpHttpListenOptions): Promise<McpHttpListener>;
	/** Closes every connection and listener. */
	close(): Promise<void>;
}

/**
 * Serves Gantry tools to MCP clients: `tools/list` with titles, annotations and output schemas,
 * `tools/call` with structured content, progress notifications carrying the tool's partial output when
 * the client sends a progress token, and cancellation. With a session, every call runs through its
 * pipeline: a tool its permission policy would ask about returns an error result saying so.
 */
export function createMcpServer(options: McpServerOptions): McpServerHandle {
	const catalog: ToolCatalog = Array.isArray(options.tools)
		? definitionsCatalog(options.tools)
		: sessionCatalog(options.tools);
	const servers = new Set<Server>();
	const listeners = new Set<McpHttpListener>();
	const stopWatching = catalog.onChanged(() => {
		for (const server of servers) void server.sendToolListChanged().catch(() => {});
	});

	const createProtocolServer = (): Server => {
		const server = new Server(
			{ name: options.name ?? PACKAGE_NAME, version: options.version ?? PACKAGE_VERSION },
			{ capabilities: { tools: { listChanged: true } }, ...withoutUndefined({ instructions: options.instructions }) },
		);
		server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalog.list().map(toMcpTool) }));
		server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
			const { name } = request.params;
			const definition = catalog.list().find((tool) => tool.name === name);
			if (definition === undefined) {
				const known = catalog
					.list()
					.map((tool) => tool.name)
					.join(", ");
				return { content: [{ type: "text", text: `Unknown tool "${name}". Tools: ${known}` }], isError: true };
			}
			const progressToken = request.params._meta?.progressToken;
			let progress = 0;
			const reportProgress = (partial: AgentToolResult) => {
				if (progressToken === undefined) return;
				const message = lastLines(partial.content);
				void extra
					.sendNotification({
						method: "notifications/progress",
						params: { progressToken, progress: ++progress, ...(message ? { message } : {}) },
					})
					.catch(() => {});
			};
			const outcome = await catalog.call(name, request.params.arguments ?? {}, {
				signal: extra.signal,
				...(progressToken === undefined ? {} : { onUpdate: reportProgress }),
			});
			return toMcpResult(outcome, definition.outputSchema !== undefined);
		});
		servers.add(server);
		server.onclose = () => servers.delete(server);
		return server;
	};

	return {
		connect: (transport) => createProtocolServer().connect(transport),
		listenStdio: () => createProtocolServer().connect(new StdioServerTransport()),
		async listenHttp(listenOptions) {
			const listener = await listenHttp(createProtocolServer, listenOptions);
			listeners.add(listener);
			return listener;
		},
		async close() {
			stopWatching();
			await Promise.all([...listeners].map((listener) => listener.close()));
			await Promise.all([...servers].map((server) => server.close().catch(() => {})));
		},
	};
}

/** The end of a partial result's text, for a progress message. */
function lastLines(content: readonly { type: string; text?: string }[]): string {
	const text = content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
	return text.length > 1000 ? text.slice(-1000) : text;
}
