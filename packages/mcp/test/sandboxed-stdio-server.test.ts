import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createSandboxedWorkspace, type SandboxedWorkspace } from "@gantry/sandbox";
import { createLocalWorkspace } from "@gantry/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpServerConnection } from "../src/index.js";

const require = createRequire(import.meta.url);
const manifest = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
const { bin } = require(manifest) as { bin: Record<string, string> };
const FILESYSTEM_BIN = join(dirname(manifest), Object.values(bin)[0] ?? "");

/** A real project folder, home, temp folder and a folder outside them all, removed afterwards. */
interface Place {
	root: string;
	project: string;
	home: string;
	temp: string;
	outside: string;
}

let place: Place;
let workspace: SandboxedWorkspace | undefined;
let connection: McpServerConnection | undefined;

beforeEach(async () => {
	const root = await realpath(await mkdtemp(join(tmpdir(), "gantry-mcp-sandbox-")));
	place = {
		root,
		project: join(root, "project"),
		home: join(root, "home"),
		temp: join(root, "temp"),
		outside: join(root, "outside"),
	};
	await Promise.all([place.project, place.home, place.temp, place.outside].map((folder) => mkdir(folder)));
});

afterEach(async () => {
	await connection?.close();
	connection = undefined;
	await workspace?.close();
	workspace = undefined;
	await rm(place.root, { recursive: true, force: true });
});

/** The official filesystem server, serving the project and the outside folder. */
function filesystemServer(sandbox: boolean | undefined) {
	return {
		command: process.execPath,
		args: [FILESYSTEM_BIN, place.project, place.outside],
		...(sandbox === undefined ? {} : { sandbox }),
	};
}

describe('an MCP stdio server with "sandbox": true', () => {
	it("runs in the session's sandbox: it writes in the project, not outside it, whatever it was told to serve", async () => {
		const local = createLocalWorkspace(place.project, { tempDir: place.temp, home: place.home });
		workspace = await createSandboxedWorkspace(local, { enabled: true });
		const sandboxedWorkspace = workspace;
		connection = new McpServerConnection("files", filesystemServer(true), {
			cwd: place.project,
			sandboxCommand: (command, args) => sandboxedWorkspace.sandboxCommand(command, args),
		});
		await connection.start();
		expect((await connection.settled()).state).toBe("ready");
		const inside = await connection.callTool("write_file", { path: join(place.project, "in.txt"), content: "in" });
		expect(inside.isError).not.toBe(true);
		expect(readFileSync(join(place.project, "in.txt"), "utf8")).toBe("in");
		const outside = await connection.callTool("write_file", { path: join(place.outside, "out.txt"), content: "out" });
		expect(outside.isError).toBe(true);
		expect(existsSync(join(place.outside, "out.txt"))).toBe(false);
	});

	it("does not start when the session has no sandbox, and says why", async () => {
		connection = new McpServerConnection("files", filesystemServer(true), { cwd: place.project });
		await connection.start();
		const status = await connection.settled();
		expect(status.state).toBe("failed");
		expect(status.state === "failed" && status.error).toContain('"sandbox": true asks for the OS sandbox');
	});
});
