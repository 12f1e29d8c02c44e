import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createHttpGuard, listenerToken } from "./http-guard.js";
import { type HttpSession, SessionPool } from "./session-pool.js";

/** Where `listenHttp` listens, and who may use it. */
export interface McpHttpListenOptions {
	/** Default `127.0.0.1`. */
	host?: string;
	/** Default 0: any free port (read it from `url`). */
	port?: number;
	/** Default `/mcp`. */
	path?: string;
	/**
	 * A bearer token every request must send (`Authorization: Bearer <token>`). A bind that is not
	 * loopback always has one: without this option a random token is made (read it from `token`).
	 */
	token?: string;
	/** Host names accepted in the `Host` header besides loopback ones (a loopback bind accepts only those). */
	allowedHosts?: string[];
	/** Browser origins accepted besides the server's own `http://127.0.0.1:PORT` (and localhost, [::1]). */
	allowedOrigins?: string[];
	/** At most this many live sessions; an initialize past it gets 503. Default 32. */
	maxSessions?: number;
	/** A session with no request for this long is closed. Default 600 000 (10 minutes). */
	sessionIdleMs?: number;
}

/** A listening HTTP endpoint. */
export interface McpHttpListener {
	/** The endpoint clients connect to, e.g. `http://127.0.0.1:4123/mcp`. */
	readonly url: string;
	/** The bearer token clients must send, when there is one (given, or made for a non-loopback bind). */
	readonly token: string | undefined;
	/** How many sessions are live now (initializing ones included). */
	readonly sessionCount: number;
	close(): Promise<void>;
}

/** The largest request body accepted. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_SESSIONS = 32;
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;

/**
 * Serves Streamable HTTP: a POST `initialize` without a session id opens a session (its own protocol
 * server from `createServer`); later requests carry `Mcp-Session-Id`; DELETE ends the session. Every
 * request first passes the guard (Host and Origin on loopback binds, the bearer token when there is
 * one); sessions are capped and closed when idle.
 */
export async function listenHttp(
	createServer_: () => Server,
	options: McpHttpListenOptions = {},
): Promise<McpHttpListener> {
	const path = options.path ?? "/mcp";
	if (options.token !== undefined && options.token.trim() === "")
		throw new Error("The MCP server's token is empty: pass a real token, or none on a loopback bind.");
	const maxSessions = positive(options.maxSessions, DEFAULT_MAX_SESSIONS, "maxSessions");
	const idleMs = positive(options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS, "sessionIdleMs");
	const sessions = new SessionPool(maxSessions, idleMs);
	let guard: ReturnType<typeof createHttpGuard> = () => ({ status: 403, message: "Forbidden: not listening yet." });

	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const refusal = guard(request);
		if (refusal !== undefined) {
			if (refusal.status === 401) response.setHeader("WWW-Authenticate", 'Bearer realm="gantry-mcp"');
			return reply(response, refusal.status, refusal.message);
		}
		const url = new URL(request.url ?? "/", "http://localhost");
		if (url.pathname !== path) return reply(response, 404, `Not found: the MCP endpoint is ${path}`);
		const sessionId = header(request, "mcp-session-id");
		const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
		// Only requests count as use: a client's standing GET stream does not keep an idle session alive.
		if (existing !== undefined && request.method !== "GET") sessions.track(existing, response);
		if (request.method === "POST") {
			const body = await readJson(request);
			if (body.error !== undefined) return reply(response, 400, body.error);
			if (existing !== undefined) return existing.transport.handleRequest(request, response, body.value);
			if (sessionId !== undefined)
				return reply(response, 404, `Unknown or expired session ${sessionId}; initialize again.`);
			if (!isInitializeRequest(body.value))
				return reply(response, 400, "Bad request: send initialize first (no Mcp-Session-Id header given).");
			const session = sessions.open();
			if (session === undefined)
				return reply(
					response,
					503,
					`Service unavailable: this server already has ${maxSessions} live MCP sessions (its limit). End one with DELETE, or wait: idle sessions close after ${Math.round(idleMs / 1000)} s.`,
				);
			return startSession(session, request, response, body.value);
		}
		if (request.method === "GET" || request.method === "DELETE") {
			if (existing === undefined) return reply(response, 400, "Bad request: missing or unknown Mcp-Session-Id.");
			return existing.transport.handleRequest(request, response);
		}
		response.setHeader("Allow", "GET, POST, DELETE");
		return reply(response, 405, `Method ${request.method} is not allowed on ${path}.`);
	};

	const startSession = async (
		session: HttpSession,
		request: IncomingMessage,
		response: ServerResponse,
		body: unknown,
	) => {
		const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			onsessioninitialized: (id) => sessions.register(session, id, transport),
		});
		session.transport = transport;
		transport.onclose = () => sessions.release(session);
		sessions.track(session, response);
		try {
			await createServer_().connect(transport);
			await transport.handleRequest(request, response, body);
		} finally {
			// An initialize that did not make a session (bad version, broken body) frees its place.
			if (transport.sessionId === undefined) await transport.close().catch(() => sessions.release(session));
		}
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
	const token = listenerToken(address.address, options.token);
	guard = createHttpGuard({
		boundAddress: address.address,
		port: address.port,
		...(token === undefined ? {} : { token }),
		...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
		...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
	});
	return {
		url: `http://${host}:${address.port}${path}`,
		token,
		get sessionCount() {
			return sessions.size;
		},
		async close() {
			await sessions.closeAll();
			http.closeAllConnections();
			await new Promise<void>((resolve) => http.close(() => resolve()));
		},
	};
}

function positive(value: number | undefined, fallback: number, name: string): number {
	if (value === undefined) return fallback;
	if (!(Number.isFinite(value) && value > 0)) throw new Error(`${name} must be a positive number (got ${value}).`);
	return value;
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
