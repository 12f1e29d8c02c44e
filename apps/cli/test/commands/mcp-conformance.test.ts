import { type ChildProcess, spawn } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, makeWorkspace } from "../helpers/run-cli.js";

// Software nobody here wrote, run against `gantry mcp serve` and `gantry mcp call`: the official
// conformance suite (0.1.9, whose runner keeps SDK 1.25.3 through a package override) and the inspector CLI.
const require = createRequire(import.meta.url);
const packageRoot = (name: string) => dirname(realpathSync(require.resolve(`${name}/package.json`)));
const CONFORMANCE = join(packageRoot("@modelcontextprotocol/conformance"), "dist", "index.js");
const INSPECTOR = join(packageRoot("@modelcontextprotocol/inspector-cli"), "build");

let workspace: ReturnType<typeof makeWorkspace>;
const children: ChildProcess[] = [];
beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(async () => {
	for (const child of children.splice(0)) {
		if (child.exitCode !== null || child.signalCode !== null) continue;
		const exited = new Promise((resolve) => child.once("exit", resolve));
		child.kill("SIGTERM");
		await exited;
	}
	workspace.remove();
});

function run(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, {
			cwd,
			env: { PATH: process.env.PATH ?? "", HOME: workspace.home },
			stdio: ["ignore", "pipe", "pipe"],
		});
		children.push(child);
		let output = "";
		child.stdout.on("data", (chunk: Buffer) => {
			output += chunk.toString("utf8");
		});
		child.stderr.on("data", (chunk: Buffer) => {
			output += chunk.toString("utf8");
		});
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, output }));
	});
}

/** `gantry mcp serve --http 127.0.0.1:0` in the workspace; resolves with its URL. */
function serveHttp(): Promise<string> {
	const child = spawn(process.execPath, [CLI_ENTRY, "mcp", "serve", "--http", "127.0.0.1:0"], {
		cwd: workspace.project,
		env: { PATH: process.env.PATH ?? "", HOME: workspace.home },
		stdio: ["ignore", "ignore", "pipe"],
	});
	children.push(child);
	return new Promise((resolve, reject) => {
		let stderr = "";
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => {
			stderr += chunk;
			const match = /serving MCP at (\S+)/.exec(stderr);
			if (match?.[1]) resolve(match[1]);
		});
		child.once("exit", () => reject(new Error(`gantry mcp serve exited: ${stderr}`)));
	});
}

describe("the MCP conformance suite", () => {
	it("server scenarios server-initialize and tools-list pass against gantry mcp serve --http", async () => {
		const url = await serveHttp();
		for (const scenario of ["server-initialize", "tools-list"]) {
			const result = await run([CONFORMANCE, "server", "--url", url, "--scenario", scenario], workspace.root);
			expect(result.output).toContain("0 failed, 0 warnings");
			expect(result.output).toMatch(/Passed: 1\/1/);
			expect(result.code).toBe(0);
		}
	});

	it("client scenarios initialize and tools_call pass with gantry mcp call", async () => {
		const call = `${process.execPath} ${CLI_ENTRY} mcp call`;
		const scenarios = [
			["initialize", `${call} any_tool --url`],
			["tools_call", `${call} add_numbers '{"a":2,"b":3}' --url`],
		];
		for (const [scenario, command] of scenarios) {
			const result = await run(
				[CONFORMANCE, "client", "--command", command as string, "--scenario", scenario as string],
				workspace.root,
			);
			expect(result.output).toContain("OVERALL: PASSED");
			expect(result.code).toBe(0);
		}
	});
});

describe("the MCP inspector CLI", () => {
	it("lists and calls gantry mcp serve's tools over stdio", async () => {
		writeFileSync(join(workspace.project, "a.txt"), "seen by the inspector\n");
		const serve = [process.execPath, CLI_ENTRY, "mcp", "serve", "--cwd", workspace.project];
		// inspector-cli 1.0.3 finds its own package.json relative to the working folder: run it from its build folder.
		const list = await run([join(INSPECTOR, "cli.js"), "--cli", ...serve, "--method", "tools/list"], INSPECTOR);
		expect(list.code).toBe(0);
		expect(list.output).toContain('"name": "read"');
		const call = await run(
			[
				join(INSPECTOR, "cli.js"),
				"--cli",
				...serve,
				"--method",
				"tools/call",
				"--tool-name",
				"read",
				"--tool-arg",
				"path=a.txt",
			],
			INSPECTOR,
		);
		expect(call.code).toBe(0);
		expect(call.output).toContain("seen by the inspector");
	});
});
