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

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
	const { createServer } = await import("node:net");
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address !== null ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** Starts `node <args>` and resolves once its stderr contains `ready`; `stop()` kills it. */
export async function startProcess(
	args: string[],
	env: Record<string, string>,
	ready: string,
): Promise<{ pid: number; stop(): Promise<void> }> {
	const { spawn } = await import("node:child_process");
	const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
	let stderr = "";
	await new Promise<void>((resolve, reject) => {
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => {
			stderr += chunk;
			if (stderr.includes(ready)) resolve();
		});
		child.once("exit", (code) => reject(new Error(`exited with ${code} before "${ready}": ${stderr}`)));
		child.once("error", reject);
	});
	return {
		pid: child.pid ?? 0,
		stop: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve();
				child.once("exit", () => resolve());
				child.kill("SIGTERM");
			}),
	};
}
