import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

/** Where `listenHttp` listens. */
export interface McpHttpListenOptions {
	/** Default `127.0.0.1`. */
	host?: string;
	/** Default 0: any free port (read it from `url`). */
	port?: number;
	/** Default `/mcp`. */
	path?: string;
}

/** A listening HTTP endpoint. */
export interface McpHttpListener {
	/** The endpoint clients connect to, e.g. `http://127.0.0.1:4123/mcp`. */
	readonly url: string;
	close(): Promise<void>;
}

/** The largest request body accepted. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Serves Streamable HTTP: a POST `initialize` without a session id opens a session (its own protocol
 * server from `createServer`); later requests carry `Mcp-Session-Id`; DELETE ends the session.
 */
export async function listenHttp(
	createServer_: () => Server,
	options: McpHttpListenOptions = {},
): Promise<McpHttpListener> {
	const path = options.path ?? "/mcp";
	const sessions = new Map<string, StreamableHTTPServerTransport>();

	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? "/", "http://localhost");
		if (url.pathname !== path) return reply(response, 404, `Not found: the MCP endpoint is ${path}`);
		const sessionId = header(request, "mcp-session-id");
		const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
		if (request.method === "POST") {
			const body = await readJson(request);
			if (body.error !== undefined) return reply(response, 400, body.error);
			if (existing !== undefined) return existing.handleRequest(request, response, body.value);
			if (sessionId !== undefined) return reply(response, 404, `Unknown session ${sessionId}; initialize again.`);
			if (!isInitializeRequest(body.value))
				return reply(response, 400, "Bad request: send initialize first (no Mcp-Session-Id header given).");
			const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
				sessionIdGenerator: () => randomUUID(),
				onsessioninitialized: (id) => {
					sessions.set(id, transport);
				},
			});
			transport.onclose = () => {
				if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
			};
			await createServer_().connect(transport);
			return transport.handleRequest(request, response, body.value);
		}
		if (request.method === "GET" || request.method === "DELETE") {
			if (existing === undefined) return reply(response, 400, "Bad request: missing or unknown Mcp-Session-Id.");
			return existing.handleRequest(request, response);
		}
		response.setHeader("Allow", "GET, POST, DELETE");
		return reply(response, 405, `Method ${request.method} is not allowed on ${path}.`);
	};

	const http = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			if (!response.headersSent) reply(response, 500, `Internal error: ${String(error)}`);
		});
	});
	await new Promise<void>((resolve, reject) => {
		http.once("error", reject);
		http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
	});
	const address = http.address() as AddressInfo;
	const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
	return {
		url: `http://${host}:${address.port}${path}`,
		async close() {
			await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => {})));
			sessions.clear();
			http.closeAllConnections();
			await new Promise<void>((resolve) => http.close(() => resolve()));
		},
	};
}

function header(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function reply(response: ServerResponse, status: number, message: string): void {
	response.writeHead(status, { "Content-Type": "application/json" });
	response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(request: IncomingMessage): Promise<{ value?: unknown; error?: string }> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) return { error: `Request body over ${MAX_BODY_BYTES} bytes.` };
		chunks.push(chunk as Buffer);
	}
	try {
		return { value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
	} catch (error) {
		return { error: `Parse error: the body is not JSON (${(error as Error).message}).` };
	}
}
