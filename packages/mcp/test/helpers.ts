import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSettings } from "../src/index.js";

const require = createRequire(import.meta.url);

/** The entry file of an installed package's bin. */
function binOf(packageName: string): string {
	const manifest = require.resolve(`${packageName}/package.json`);
	const { bin } = require(manifest) as { bin: Record<string, string> };
	return join(dirname(manifest), Object.values(bin)[0] ?? "");
}

export const EVERYTHING_BIN = binOf("@modelcontextprotocol/server-everything");
export const FILESYSTEM_BIN = binOf("@modelcontextprotocol/server-filesystem");
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** server-everything over stdio, started with this Node. */
export function everythingStdio(extra: Partial<McpServerSettings> = {}): McpServerSettings {
	return { command: process.execPath, args: [EVERYTHING_BIN, "stdio"], ...extra } as McpServerSettings;
}

/** A hostile test server from `test/fixtures/<name>.mjs`, started with this Node. */
export function fixtureServer(name: string, extra: Partial<McpServerSettings> = {}): McpServerSettings {
	return { command: process.execPath, args: [join(FIXTURES, `${name}.mjs`)], ...extra } as McpServerSettings;
}

/** A real temp folder, removed by `remove()`. */
export function makeTempDir(prefix = "gantry-mcp-"): { path: string; remove(): void } {
	const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Whether a process with this pid still runs. */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
