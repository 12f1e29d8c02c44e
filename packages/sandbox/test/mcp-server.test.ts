import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { McpServerConnection } from "@gantry/mcp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxedWorkspace } from "../src/index.js";
import { makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

const require = createRequire(import.meta.url);
const manifest = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
const { bin } = require(manifest) as { bin: Record<string, string> };
const FILESYSTEM_BIN = join(dirname(manifest), Object.values(bin)[0] ?? "");

let place: Place;
let workspace: SandboxedWorkspace | undefined;
let connection: McpServerConnection | undefined;

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	await connection?.close();
	connection = undefined;
	await workspace?.close();
	workspace = undefined;
	await removePlace(place);
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
		workspace = await sandboxed(place);
		connection = new McpServerConnection("files", filesystemServer(true), {
			cwd: place.project,
			sandboxCommand: (command, args) => (workspace as SandboxedWorkspace).sandboxCommand(command, args),
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
