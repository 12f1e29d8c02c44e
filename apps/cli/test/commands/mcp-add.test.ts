// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the commands under test write ${VAR} on purpose
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMcpArguments } from "../../src/commands/mcp-args.js";
import { makeWorkspace, runCli } from "../helpers/run-cli.js";

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
const projectFile = () => join(workspace.project, ".mcp.json");
const userFile = () => join(workspace.home, ".gantry", "mcp.json");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

interface ListEntry {
	name: string;
	transport: string;
	target: string;
	status: { state: string };
	tools: string[];
}
async function listed(): Promise<ListEntry[]> {
	const run = await gantry(["mcp", "list", "--json"]);
	expect(run.code).toBe(0);
	return JSON.parse(run.stdout) as ListEntry[];
}

/** A real Streamable HTTP MCP server on loopback (the SDK's McpServer) that records the headers it got. */
async function httpServer(): Promise<{ url: string; headers: IncomingHttpHeaders[] }> {
	const headers: IncomingHttpHeaders[] = [];
	const mcp = new McpServer({ name: "web", version: "1.0.0" });
	mcp.registerTool("hello", { description: "Says hello." }, async () => ({ content: [{ type: "text", text: "hi" }] }));
	const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
	await mcp.connect(transport);
	const listener = createServer((request, response) => {
		headers.push(request.headers);
		void transport.handleRequest(request, response);
	});
	await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
	cleanups.push(async () => {
		await mcp.close();
		listener.closeAllConnections();
		await new Promise<void>((resolve) => listener.close(() => resolve()));
	});
	return { url: `http://127.0.0.1:${(listener.address() as { port: number }).port}/mcp`, headers };
}

describe("gantry mcp add", () => {
	it("--scope user -- CMD ARGS writes ~/.gantry/mcp.json in Claude Code's shape; gantry mcp list starts it", async () => {
		const run = await gantry([
			"mcp",
			"add",
			"adder",
			"--scope",
			"user",
			"--env",
			"MODE=fast",
			"--",
			process.execPath,
			ADDER,
		]);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(run.stdout).toContain(`Added MCP server "adder" (stdio: ${process.execPath} ${ADDER}) to ${userFile()}.`);
		expect(readJson(userFile())).toEqual({
			mcpServers: { adder: { type: "stdio", command: process.execPath, args: [ADDER], env: { MODE: "fast" } } },
		});
		const [entry] = await listed();
		expect(entry).toMatchObject({
			name: "adder",
			transport: "stdio",
			status: { state: "ready" },
			tools: ["add", "refuse"],
		});
	});

	it("defaults to the project's .mcp.json, keeping its other keys, servers and indentation; it starts once trusted", async () => {
		const before = {
			$schema: "https://example.test/mcp.schema.json",
			mcpServers: { old: { command: "old-server" } },
			note: "kept",
		};
		writeFileSync(projectFile(), `${JSON.stringify(before, null, 2)}\n`);
		const run = await gantry([
			"mcp",
			"add",
			"adder",
			"-e",
			"TOKEN=${ADDER_TOKEN:-none}",
			process.execPath,
			ADDER,
			"--verbose",
		]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("not trusted yet");
		const text = readFileSync(projectFile(), "utf8");
		expect(text).toBe(
			`${JSON.stringify(
				{
					...before,
					mcpServers: {
						old: { command: "old-server" },
						adder: {
							type: "stdio",
							command: process.execPath,
							args: [ADDER, "--verbose"],
							env: { TOKEN: "${ADDER_TOKEN:-none}" },
						},
					},
				},
				null,
				2,
			)}\n`,
		);
		// Untrusted: listed by name only in the notice, never started.
		const untrusted = await gantry(["mcp", "list", "--json"]);
		expect(untrusted.stderr).toContain("adder");
		expect(JSON.parse(untrusted.stdout)).toEqual([]);
		expect((await gantry(["trust"])).code).toBe(0);
		const entries = await listed();
		expect(entries.find((entry) => entry.name === "adder")).toMatchObject({ status: { state: "ready" } });
		expect(entries.find((entry) => entry.name === "old")?.status.state).toBe("failed");
	});

	it("--transport http URL --header writes an HTTP entry; the server gets the header", async () => {
		const web = await httpServer();
		const run = await gantry([
			"mcp",
			"add",
			"web",
			"--scope",
			"user",
			"--transport",
			"http",
			web.url,
			"--header",
			"X-Api-Key: k-123",
			"-H",
			"Authorization: Bearer abc",
		]);
		expect(run.code).toBe(0);
		expect(readJson(userFile()).mcpServers.web).toEqual({
			type: "http",
			url: web.url,
			headers: { "X-Api-Key": "k-123", Authorization: "Bearer abc" },
		});
		const [entry] = await listed();
		expect(entry).toMatchObject({
			name: "web",
			transport: "http",
			target: web.url,
			status: { state: "ready" },
			tools: ["hello"],
		});
		expect(
			web.headers.some((headers) => headers["x-api-key"] === "k-123" && headers.authorization === "Bearer abc"),
		).toBe(true);
	});

	it("a duplicate name is an error until it is removed; remove takes it out of whichever file has it", async () => {
		expect((await gantry(["mcp", "add", "adder", "-s", "user", "--", process.execPath, ADDER])).code).toBe(0);
		const written = readFileSync(userFile(), "utf8");
		const again = await gantry(["mcp", "add", "adder", "-s", "user", "--", "other-server"]);
		expect(again.code).toBe(1);
		expect(again.stderr).toContain(
			`already has an MCP server named "adder": remove it first (gantry mcp remove adder)`,
		);
		expect(readFileSync(userFile(), "utf8")).toBe(written);
		const removed = await gantry(["mcp", "remove", "adder"]);
		expect(removed.code).toBe(0);
		expect(removed.stdout).toContain(`Removed MCP server "adder" from ${userFile()}.`);
		expect(readJson(userFile())).toEqual({ mcpServers: {} });
		expect(await listed()).toEqual([]);
		expect((await gantry(["mcp", "add", "adder", "-s", "user", "--", process.execPath, ADDER])).code).toBe(0);
		const missing = await gantry(["mcp", "remove", "nope"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain('No MCP server named "nope" in');
	});

	it("remove without --scope asks which when both files have the name", async () => {
		expect((await gantry(["mcp", "add", "twin", "-s", "user", "--", "a-server"])).code).toBe(0);
		expect((await gantry(["mcp", "add", "twin", "--", "b-server"])).code).toBe(0);
		const both = await gantry(["mcp", "remove", "twin"]);
		expect(both.code).toBe(1);
		expect(both.stderr).toContain("say which with --scope project or --scope user");
		expect((await gantry(["mcp", "remove", "twin", "--scope", "project"])).code).toBe(0);
		expect(readJson(projectFile()).mcpServers).toEqual({});
		expect(readJson(userFile()).mcpServers.twin).toMatchObject({ command: "a-server" });
	});

	it("bad input says what is wrong and writes nothing", async () => {
		const cases: [string[], RegExp][] = [
			[["add", "x", "--env", "NOEQUALS", "--", "cmd"], /--env needs KEY=value.*got "NOEQUALS"/],
			[["add", "x", "--env", "1BAD=v", "--", "cmd"], /--env needs KEY=value.*got "1BAD=v"/],
			[["add", "x", "--env", "A=1", "--env", "A=2", "--", "cmd"], /--env A is given twice/],
			[
				["add", "x", "--transport", "http", "http://127.0.0.1:9/mcp", "--header", "no colon"],
				/--header needs "Name: value".*got "no colon"/,
			],
			[
				["add", "x", "--transport", "http", "http://127.0.0.1:9/mcp", "--header", "Bad Name: v"],
				/--header needs "Name: value"/,
			],
			[["add", "x", "--transport", "http", "ftp://host/mcp"], /needs the server's http\(s\) URL/],
			[["add", "x", "--header", "A: b", "--", "cmd"], /--header is for an HTTP server/],
			[
				["add", "x", "--transport", "http", "--env", "A=1", "http://127.0.0.1:9/mcp"],
				/--env is for a command \(stdio\) server/,
			],
			[["add", "x"], /needs the command that starts the server/],
			[["add"], /needs the server's name first/],
			[["add", "bad name!", "--", "cmd"], /may hold only letters, digits/],
			[["add", "x", "--scope", "local", "--", "cmd"], /--scope local is Claude Code's private list/],
			[["add", "x", "--scope", "team", "--", "cmd"], /--scope needs project or user/],
			[["add", "x", "--transport", "ws", "--", "cmd"], /--transport needs stdio, http or sse/],
			[["add", "x", "https://example.test/mcp"], /looks like a URL: add --transport http/],
			[["remove"], /needs the server's name first/],
		];
		for (const [args, message] of cases) expect(() => parseMcpArguments(args), args.join(" ")).toThrow(message);
		// Through the real command: a usage error, exit 2, naming what is wrong.
		for (const [args, message] of [cases[0], cases[3]] as [string[], RegExp][]) {
			const run = await gantry(["mcp", ...args]);
			expect(run.code, args.join(" ")).toBe(2);
			expect(run.stderr, args.join(" ")).toMatch(message);
		}
		mkdirSync(join(workspace.home, ".gantry"), { recursive: true });
		writeFileSync(userFile(), "{ not json");
		const broken = await gantry(["mcp", "add", "x", "-s", "user", "--", "cmd"]);
		expect(broken.code).toBe(1);
		expect(broken.stderr).toContain(`${userFile()} was not changed: it is not valid JSON`);
		expect(readFileSync(userFile(), "utf8")).toBe("{ not json");
		expect(() => readFileSync(projectFile())).toThrow();
	});

	it("is in gantry mcp --help and gantry --help", async () => {
		const help = await gantry(["mcp", "--help"]);
		expect(help.stdout).toContain("gantry mcp add NAME [--scope project|user] [--env K=V]… [--] CMD [ARGS…]");
		expect(help.stdout).toContain('gantry mcp add NAME --transport http URL [--header "K: V"]…');
		expect(help.stdout).toContain("gantry mcp remove NAME [--scope project|user]");
		expect((await gantry(["--help"])).stdout).toContain("gantry mcp add NAME -- CMD ARGS…");
	});
});
