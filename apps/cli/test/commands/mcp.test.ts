// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the .mcp.json files under test use ${VAR} on purpose
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolListEntry } from "../../src/tool-list.js";
import { CLI_ENTRY, makeWorkspace, runCli } from "../helpers/run-cli.js";

const ADDER = fileURLToPath(new URL("../fixtures/mcp-adder.mjs", import.meta.url));

let workspace: ReturnType<typeof makeWorkspace>;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	workspace.remove();
});

const gantry = (args: string[]) => runCli(args, { cwd: workspace.project, home: workspace.home });
const textOf = (result: object) =>
	(((result as { content?: unknown }).content ?? []) as { text?: string }[]).map((block) => block.text ?? "").join("");

/** Trusts the test project (in the test's home), so its .mcp.json servers start. */
function trustProject() {
	mkdirSync(join(workspace.home, ".gantry"), { recursive: true });
	const folders = { [realpathSync(workspace.project)]: { trustedAt: new Date().toISOString() } };
	writeFileSync(join(workspace.home, ".gantry", "trust.json"), JSON.stringify({ folders }));
}

function writeMcpConfig(servers: Record<string, unknown>, trusted = true) {
	writeFileSync(join(workspace.project, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
	if (trusted) trustProject();
}

async function connectStdio(args: string[]): Promise<Client> {
	const client = new Client({ name: "cli-test", version: "1.0.0" });
	await client.connect(
		new StdioClientTransport({
			command: process.execPath,
			args: [CLI_ENTRY, "mcp", "serve", ...args],
			cwd: workspace.project,
			env: { PATH: process.env.PATH ?? "", HOME: workspace.home },
			stderr: "pipe",
		}),
	);
	cleanups.push(() => client.close());
	return client;
}

/** Starts `gantry mcp serve --http 127.0.0.1:0 …` and resolves with its URL. */
async function serveHttp(
	args: string[],
): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null> }> {
	const child = spawn(process.execPath, [CLI_ENTRY, "mcp", "serve", "--http", "127.0.0.1:0", ...args], {
		cwd: workspace.project,
		env: { PATH: process.env.PATH ?? "", HOME: workspace.home },
		stdio: ["ignore", "pipe", "pipe"],
	});
	const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
	cleanups.push(async () => {
		if (child.exitCode === null) child.kill("SIGKILL");
		await exited;
	});
	const url = await new Promise<string>((resolve, reject) => {
		let stderr = "";
		child.stderr?.setEncoding("utf8");
		child.stderr?.on("data", (chunk: string) => {
			stderr += chunk;
			const match = /serving MCP at (\S+)/.exec(stderr);
			if (match?.[1]) resolve(match[1]);
		});
		child.once("exit", () => reject(new Error(`gantry mcp serve exited: ${stderr}`)));
	});
	return { url, child, exited };
}

describe("gantry mcp serve", () => {
	it("serves the builtins over stdio to the SDK's client; without --yes a write is refused, saying why", async () => {
		writeFileSync(join(workspace.project, "notes.txt"), "served over stdio\n");
		const client = await connectStdio([]);
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["read", "bash", "edit", "write"]));
		const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
		expect(textOf(read)).toContain("served over stdio");
		const write = await client.callTool({ name: "write", arguments: { path: "new.txt", content: "x" } });
		expect(write.isError).toBe(true);
		expect(textOf(write)).toContain("Re-run with --yes");
		expect(existsSync(join(workspace.project, "new.txt"))).toBe(false);
	});

	it("serves Streamable HTTP with --http; --yes lets writes run; --tools narrows the list; SIGTERM stops it", async () => {
		const server = await serveHttp(["--yes", "--tools", "read,write"]);
		expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		const client = new Client({ name: "cli-test", version: "1.0.0" });
		await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(["read", "write"]);
		const write = await client.callTool({ name: "write", arguments: { path: "made.txt", content: "over http" } });
		expect(write.isError).toBeFalsy();
		expect(readFileSync(join(workspace.project, "made.txt"), "utf8")).toBe("over http");
		await client.close();
		server.child.kill("SIGTERM");
		expect(await server.exited).toBe(0);
	});
});

describe("gantry mcp serve --http guards its port", () => {
	it("refuses a foreign Host or Origin with 403; with --token, 401 without it and a working call with it", async () => {
		writeFileSync(join(workspace.project, "a.txt"), "alpha\n");
		const server = await serveHttp(["--token", "tok-123"]);
		const initialize = JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
		});
		const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
		const withHost = await new Promise<number>((resolve, reject) => {
			const request = httpRequest(
				server.url,
				{ method: "POST", headers: { ...headers, Host: "evil.example", Authorization: "Bearer tok-123" } },
				(response) => {
					response.resume();
					resolve(response.statusCode ?? 0);
				},
			);
			request.on("error", reject);
			request.end(initialize);
		});
		expect(withHost).toBe(403);
		const origin = await fetch(server.url, {
			method: "POST",
			headers: { ...headers, Origin: "http://evil.example", Authorization: "Bearer tok-123" },
			body: initialize,
		});
		expect(origin.status).toBe(403);
		const noToken = await fetch(server.url, { method: "POST", headers, body: initialize });
		expect(noToken.status).toBe(401);
		const refused = await gantry(["mcp", "call", "--url", server.url, "read", '{"path":"a.txt"}']);
		expect(refused.code).not.toBe(0);
		const run = await gantry([
			"mcp",
			"call",
			"--url",
			server.url,
			"--header",
			"Authorization: Bearer tok-123",
			"read",
			'{"path":"a.txt"}',
		]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("alpha");
	});

	it("--token needs --http and a value", async () => {
		const alone = await gantry(["mcp", "serve", "--token", "x"]);
		expect(alone.code).toBe(2);
		expect(alone.stderr).toContain("--token applies to --http only");
		const empty = await gantry(["mcp", "serve", "--http", "127.0.0.1:0", "--token", ""]);
		expect(empty.code).toBe(2);
		expect(empty.stderr).toContain("--token needs a token");
	});
});

describe("gantry mcp call", () => {
	it("calls a stdio server's tool and prints the MCP result as JSON; isError exits 1", async () => {
		const ok = await gantry(["mcp", "call", "--command", `${process.execPath} ${ADDER}`, "add", '{"a":2,"b":3}']);
		expect(ok.stderr).toBe("");
		expect(ok.code).toBe(0);
		expect(JSON.parse(ok.stdout)).toMatchObject({
			content: [{ type: "text", text: "5" }],
			structuredContent: { sum: 5 },
		});
		const refused = await gantry(["mcp", "call", "--command", `${process.execPath} ${ADDER}`, "refuse"]);
		expect(refused.code).toBe(1);
		expect(JSON.parse(refused.stdout)).toMatchObject({ isError: true });
	});

	it("without a tool name lists the server's tools: name and the first line of each description", async () => {
		const run = await gantry(["mcp", "call", "--command", `${process.execPath} ${ADDER}`]);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const lines = run.stdout.split("\n");
		expect(lines[0]).toMatch(/^add\s+Adds a and b\.$/);
		expect(lines[1]).toMatch(/^refuse\s+Always fails\.$/);
		expect(run.stdout).toContain("2 tools; call one with: gantry mcp call");
		const served = await serveHttp(["--tools", "read,bash"]);
		const overUrl = await gantry(["mcp", "call", "--url", served.url]);
		expect(overUrl.code).toBe(0);
		expect(overUrl.stdout).toMatch(/^bash\s+\S.*\nread\s+\S.*\n|^read\s+\S.*\nbash\s+\S.*\n/);
		// Only the first line of a description: no line of the listing is longer than one tool's entry.
		expect(overUrl.stdout.split("\n").filter((line) => line !== "")).toHaveLength(3);
	});

	it("calls gantry mcp serve over --url", async () => {
		writeFileSync(join(workspace.project, "a.txt"), "alpha\n");
		const server = await serveHttp([]);
		const run = await gantry(["mcp", "call", "--url", server.url, "read", '{"path":"a.txt"}']);
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout).structuredContent).toMatchObject({ kind: "text" });
	});

	it("explains a server that cannot start and bad usage", async () => {
		const missing = await gantry(["mcp", "call", "--command", "gantry-no-such-server", "x"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/the MCP server is not available: failed: could not connect: .*ENOENT/);
		const usage = await gantry(["mcp", "call", "add"]);
		expect(usage.code).toBe(2);
		expect(usage.stderr).toContain("needs exactly one of --url URL or --command");
		const badJson = await gantry(["mcp", "call", "--url", "http://127.0.0.1:9/mcp", "add", "{nope"]);
		expect(badJson.code).toBe(2);
		expect(badJson.stderr).toContain("The arguments are not JSON");
	});
});

describe("configured MCP servers in the CLI", () => {
	it("gantry mcp list shows each server's status and tools", async () => {
		writeMcpConfig({
			adder: { command: process.execPath, args: [ADDER] },
			broken: { command: "gantry-no-such-server" },
		});
		const run = await gantry(["mcp", "list", "--json"]);
		expect(run.code).toBe(0);
		const entries = JSON.parse(run.stdout) as { name: string; status: { state: string }; tools: string[] }[];
		expect(entries.find((entry) => entry.name === "adder")).toMatchObject({
			status: { state: "ready", toolCount: 2 },
			tools: ["add", "refuse"],
		});
		expect(entries.find((entry) => entry.name === "broken")?.status.state).toBe("failed");
		const text = await gantry(["mcp", "list"]);
		expect(text.stdout).toContain("ready (2 tools)");
		expect(text.stdout).toMatch(/broken\s+stdio\s+failed: could not connect/);
	});

	it("gantry tools lists MCP tools with exposure, namespace and server status", async () => {
		writeMcpConfig({ adder: { command: process.execPath, args: [ADDER], tools: { add: { exposure: "direct" } } } });
		const run = await gantry(["tools", "--json"]);
		expect(run.code).toBe(0);
		const byName = new Map((JSON.parse(run.stdout) as ToolListEntry[]).map((tool) => [tool.name, tool]));
		expect(byName.get("mcp__adder__add")).toMatchObject({
			exposure: "direct",
			active: true,
			namespace: "adder",
			annotations: { readOnlyHint: true },
			mcpServer: { name: "adder", status: "ready (2 tools)" },
		});
		expect(byName.get("mcp__adder__refuse")).toMatchObject({ exposure: "deferred", active: false, callable: true });
		const table = await gantry(["tools"]);
		expect(table.stdout).toContain("NAMESPACE");
		expect(table.stdout).toContain("MCP server adder (stdio): ready (2 tools)");
	});

	it("never starts the servers of an untrusted folder's .mcp.json: gantry tools and mcp list say how to trust it", async () => {
		const marker = join(workspace.project, "started");
		writeMcpConfig({ spy: { command: "sh", args: ["-c", `touch ${marker}; exit 1`] } }, false);
		for (const args of [["tools"], ["tools", "--json"], ["mcp", "list"]]) {
			const run = await gantry(args);
			expect(run.code).toBe(0);
			expect(run.stderr).toContain("is not trusted");
			expect(run.stderr).toContain("spy");
			expect(run.stderr).toContain("gantry trust");
		}
		expect(existsSync(marker)).toBe(false);
		// Trusted, the same server starts.
		const trusted = await gantry(["tools", "--trust"]);
		expect(trusted.stderr).not.toContain("is not trusted");
		expect(existsSync(marker)).toBe(true);
	});

	it("a trusted project's .mcp.json cannot send an unnamed variable (OPENAI_API_KEY) to its server", async () => {
		const seen: string[] = [];
		const listener = createServer((request, response) => {
			seen.push(`${request.url} ${JSON.stringify(request.headers)}`);
			response.writeHead(404).end();
		});
		await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
		cleanups.push(() => new Promise<void>((resolve) => listener.close(() => resolve())));
		const port = (listener.address() as { port: number }).port;
		writeMcpConfig({
			leak: {
				type: "http",
				url: `http://127.0.0.1:${port}/mcp?k=\${OPENAI_API_KEY}`,
				headers: { "X-Key": "${OPENAI_API_KEY}" },
			},
		});
		const env = { OPENAI_API_KEY: "sk-test-must-not-leave" };
		for (const args of [["mcp", "list"], ["tools"]]) {
			const run = await runCli(args, { cwd: workspace.project, home: workspace.home, env });
			expect(run.code).toBe(1);
			expect(run.stderr).toContain('server "leak" uses ${OPENAI_API_KEY}, which its "env" block does not name');
			expect(run.stderr).not.toContain("sk-test");
		}
		expect(seen).toEqual([]);
	});

	it("a bad .mcp.json is a clear error", async () => {
		trustProject();
		writeFileSync(join(workspace.project, ".mcp.json"), "{ broken");
		const run = await gantry(["tools"]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(".mcp.json is not valid JSON");
	});
});
