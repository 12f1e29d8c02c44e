import { request as httpRequest, type IncomingMessage } from "node:http";
import { defineTool } from "@gantry/extensions";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, test } from "vitest";
import { createMcpServer, type McpHttpListenOptions } from "../src/index.js";
import { createHttpGuard, isLoopbackAddress, listenerToken } from "../src/server/http-guard.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const echo = defineTool({
	name: "echo",
	label: "Echo",
	description: "Says the text back.",
	parameters: Type.Object({ text: Type.String() }),
	async execute(_id, params) {
		return { content: [{ type: "text", text: params.text }], details: undefined };
	},
});

async function serve(options: McpHttpListenOptions = {}) {
	const server = createMcpServer({ tools: [echo] });
	cleanups.push(() => server.close());
	const listener = await server.listenHttp(options);
	return listener;
}

const initialize = JSON.stringify({
	jsonrpc: "2.0",
	id: 1,
	method: "initialize",
	params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const postHeaders = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** A raw POST with any headers, Host included (fetch does not let a caller set Host). */
function rawPost(url: string, headers: Record<string, string>, body = initialize) {
	return new Promise<{ status: number; body: string; headers: IncomingMessage["headers"] }>((resolve, reject) => {
		const request = httpRequest(url, { method: "POST", headers: { ...postHeaders, ...headers } }, (response) => {
			let text = "";
			response.setEncoding("utf8");
			response.on("data", (chunk: string) => {
				text += chunk;
			});
			response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
		});
		request.on("error", reject);
		request.end(body);
	});
}

async function connectClient(url: string, token?: string) {
	const client = new Client({ name: "sdk-client", version: "1.0.0" });
	const requestInit: RequestInit = token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } };
	const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit });
	await client.connect(transport);
	cleanups.push(() => client.close());
	return Object.assign(client, { end: () => transport.terminateSession() });
}

describe("gantry's MCP HTTP listener refuses what a hostile page or host sends", () => {
	test("a loopback bind refuses a foreign Host with 403 and makes no session; its own hosts pass", async () => {
		const listener = await serve();
		const port = new URL(listener.url).port;
		for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.evil.example", "attacker@127.0.0.1"]) {
			const refused = await rawPost(listener.url, { Host: host });
			expect(refused.status, host).toBe(403);
			expect(JSON.parse(refused.body).error.message).toContain("is not this server's");
			expect(refused.headers["mcp-session-id"]).toBeUndefined();
		}
		expect(listener.sessionCount).toBe(0);
		for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "LOCALHOST"]) {
			const accepted = await rawPost(listener.url, { Host: host });
			expect(accepted.status, host).toBe(200);
			expect(accepted.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
		}
		expect(listener.sessionCount).toBe(3);
	});

	test("a foreign Origin is refused with 403 before any session; the server's own origin and allowedOrigins pass", async () => {
		const listener = await serve({ allowedOrigins: ["http://localhost:6274"] });
		const port = new URL(listener.url).port;
		for (const origin of ["http://evil.example", `http://evil.example:${port}`, "null", "http://127.0.0.1:1"]) {
			const refused = await fetch(listener.url, {
				method: "POST",
				headers: { ...postHeaders, Origin: origin },
				body: initialize,
			});
			expect(refused.status, origin).toBe(403);
			expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(`Origin "${origin}"`);
		}
		expect(listener.sessionCount).toBe(0);
		for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, "http://localhost:6274"]) {
			const accepted = await fetch(listener.url, {
				method: "POST",
				headers: { ...postHeaders, Origin: origin },
				body: initialize,
			});
			expect(accepted.status, origin).toBe(200);
			await accepted.body?.cancel();
		}
	});

	test("with a token: 401 without it or with a wrong one; the SDK client with it lists and calls", async () => {
		const listener = await serve({ token: "s3cret-token" });
		expect(listener.token).toBe("s3cret-token");
		const missing = await fetch(listener.url, { method: "POST", headers: postHeaders, body: initialize });
		expect(missing.status).toBe(401);
		expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
		expect(((await missing.json()) as { error: { message: string } }).error.message).toContain("Authorization: Bearer");
		for (const authorization of [
			"Bearer s3cret-tokeN",
			"Bearer s3cret-token-and-more",
			"Basic s3cret-token",
			"s3cret-token",
		]) {
			const wrong = await fetch(listener.url, {
				method: "POST",
				headers: { ...postHeaders, Authorization: authorization },
				body: initialize,
			});
			expect(wrong.status, authorization).toBe(401);
			await wrong.body?.cancel();
		}
		expect(listener.sessionCount).toBe(0);
		await expect(connectClient(listener.url)).rejects.toThrow(/401|Unauthorized/);
		const client = await connectClient(listener.url, "s3cret-token");
		expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
		const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
		expect(result.content).toEqual([{ type: "text", text: "hi" }]);
		expect(listener.sessionCount).toBe(1);
	});

	test("an empty token and bad limits are refused with a message", async () => {
		await expect(serve({ token: " " })).rejects.toThrow(/token is empty/);
		await expect(serve({ maxSessions: 0 })).rejects.toThrow(/maxSessions must be a positive number/);
	});

	test("the guard on a non-loopback bind: no Host check, a generated token required", () => {
		expect(isLoopbackAddress("127.0.0.1")).toBe(true);
		expect(isLoopbackAddress("127.8.9.10")).toBe(true);
		expect(isLoopbackAddress("::1")).toBe(true);
		expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
		expect(isLoopbackAddress("0.0.0.0")).toBe(false);
		expect(isLoopbackAddress("::")).toBe(false);
		expect(isLoopbackAddress("192.168.1.5")).toBe(false);
		expect(listenerToken("127.0.0.1", undefined)).toBeUndefined();
		const made = listenerToken("0.0.0.0", undefined) ?? "";
		expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(listenerToken("0.0.0.0", undefined)).not.toBe(made);
		const guard = createHttpGuard({ boundAddress: "0.0.0.0", port: 8123, token: made });
		const asRequest = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
		expect(guard(asRequest({ host: "build-box.lan:8123" }))?.status).toBe(401);
		expect(guard(asRequest({ host: "build-box.lan:8123", authorization: `Bearer ${made}` }))).toBeUndefined();
		expect(guard(asRequest({ host: "build-box.lan:8123", authorization: `Bearer ${made}x` }))?.status).toBe(401);
	});
});

describe("sessions are capped and expire", () => {
	test("300 initializes make at most maxSessions (default 32) live sessions; the rest get 503 with a JSON-RPC error", async () => {
		const listener = await serve();
		const answers = await Promise.all(
			Array.from({ length: 300 }, async () => {
				const response = await fetch(listener.url, { method: "POST", headers: postHeaders, body: initialize });
				const body = await response.text();
				return { status: response.status, body };
			}),
		);
		const statuses = answers.map((answer) => answer.status);
		expect(statuses.filter((status) => status === 200)).toHaveLength(32);
		expect(statuses.filter((status) => status === 503)).toHaveLength(268);
		expect(listener.sessionCount).toBe(32);
		const refused = JSON.parse(answers.find((answer) => answer.status === 503)?.body ?? "{}");
		expect(refused).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
		expect(refused.error.message).toContain("32 live MCP sessions");
		expect(refused.error.message).toContain("DELETE");
	});

	test("a session ended with DELETE frees its place; an idle session closes and its id is unknown after", async () => {
		const listener = await serve({ maxSessions: 2, sessionIdleMs: 1500 });
		const first = await connectClient(listener.url);
		const second = await connectClient(listener.url);
		expect(listener.sessionCount).toBe(2);
		await expect(connectClient(listener.url)).rejects.toThrow(/503|live MCP sessions/);
		await second.end();
		expect(listener.sessionCount).toBe(1);
		const third = await connectClient(listener.url);
		expect((await third.callTool({ name: "echo", arguments: { text: "3" } })).content).toEqual([
			{ type: "text", text: "3" },
		]);
		// Kept alive by use: calls every 250 ms for 2.5 s, well past the idle time.
		for (let index = 0; index < 10; index++) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			await third.callTool({ name: "echo", arguments: { text: String(index) } });
		}
		// `first` did nothing since its initialize: closed, and its id is refused.
		expect(listener.sessionCount).toBe(1);
		await expect(first.callTool({ name: "echo", arguments: { text: "late" } })).rejects.toThrow(/404|expired session/);
	});
});
