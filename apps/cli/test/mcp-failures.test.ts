import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { startInteractiveGantry, useInteractiveFixture } from "./helpers/interactive-fixture.js";
import { runScriptedCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

/** A trusted project whose .mcp.json names a program that does not exist and one that exits at once. */
function writeFailingServers(project: string, home: string) {
	const servers = {
		ghost: { command: "gantry-no-such-mcp-server" },
		quitter: { command: "sh", args: ["-c", "echo 'missing licence file' >&2; exit 3"] },
	};
	writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
	mkdirSync(join(home, ".gantry"), { recursive: true });
	const folders = { [realpathSync(project)]: { trustedAt: new Date().toISOString() } };
	writeFileSync(join(home, ".gantry", "trust.json"), JSON.stringify({ folders }));
}

const gantry = (args: string[]) => runScriptedCli(server, workspace, args);

function failureLines(stderr: string): string[] {
	return stderr.split("\n").filter((line) => line.startsWith("gantry: MCP server"));
}

describe("a configured MCP server that fails to start is reported", () => {
	it("print mode: one gantry: line per server, naming it and the reason; the run goes on", async () => {
		writeFailingServers(workspace.project, workspace.home);
		server.enqueue({ text: "Fine without them." });
		const run = await gantry(["-p", "hello"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("Fine without them.\n");
		const lines = failureLines(run.stderr);
		expect(lines).toHaveLength(2);
		expect(lines.find((line) => line.includes('"ghost"'))).toMatch(/could not start: could not connect: .*ENOENT/);
		expect(lines.find((line) => line.includes('"quitter"'))).toMatch(/could not start: .*missing licence file/);
	});

	it("JSON mode: the same lines on stderr, stdout stays JSON", async () => {
		writeFailingServers(workspace.project, workspace.home);
		server.enqueue({ text: "ok" });
		const run = await gantry(["--mode", "json", "hello"]);
		expect(run.code).toBe(0);
		for (const line of run.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
		expect(
			failureLines(run.stderr)
				.map((line) => /"(\w+)"/.exec(line)?.[1])
				.sort(),
		).toEqual(["ghost", "quitter"]);
	});
});

describe("in interactive mode", () => {
	const cli = useInteractiveFixture();

	it("the banner's notes name each server that failed and why", async () => {
		writeFailingServers(cli.workspace.project, cli.workspace.home);
		const terminal = await startInteractiveGantry(cli);
		const screen = await terminal.waitFor(/MCP server "quitter" could not start[^\n]*missing licence file/);
		expect(screen).toMatch(/MCP server "ghost" could not start: could not connect: [^\n]*ENOENT/);
	});
});
