import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ScriptedLlmServer, startScriptedLlmServer } from "@gantry/ai/testing";
import { startTestSshServer, type TestSshServer } from "@gantry/ssh/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requestBody } from "./helpers/recorded-requests.js";
import { CLI_ENTRY, makeWorkspace, runCli } from "./helpers/run-cli.js";
import { HAS_TMUX, TmuxTerminal } from "./helpers/tmux.js";

// The "remote" host of the test sshd is this machine. To tell a file read on the host from one read
// locally at the same path, the CLI can run in its own mount namespace where another folder is mounted
// over the project's `.gantry`: the local view differs from the host's, as it does with a real host.
const CAN_MOUNT = (() => {
	try {
		execFileSync("unshare", ["-m", "--propagation", "private", "true"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
})();

let sshd: TestSshServer;
let llm: ScriptedLlmServer;
let local: ReturnType<typeof makeWorkspace>;
let keyFile: string;
let remoteFolder: string;
const remoteFolders: string[] = [];

beforeAll(async () => {
	sshd = await startTestSshServer();
	llm = await startScriptedLlmServer();
	local = makeWorkspace();
	mkdirSync(join(local.home, ".ssh"), { recursive: true });
	writeFileSync(join(local.home, ".ssh", "known_hosts"), `[127.0.0.1]:${sshd.port} ${sshd.hostKeyLine}\n`);
	keyFile = join(local.root, "client-key");
	writeFileSync(keyFile, sshd.clientKey, { mode: 0o600 });
}, 60_000);
beforeEach(async () => {
	remoteFolder = await sshd.makeRemoteFolder();
	remoteFolders.push(remoteFolder);
});
afterAll(async () => {
	await llm?.close();
	await sshd?.stop();
	local?.remove();
	for (const folder of remoteFolders) rmSync(folder, { recursive: true, force: true });
});

/** Writes a file in the remote folder, owned by the remote user. */
function writeRemote(relative: string, text: string): void {
	const path = join(remoteFolder, relative);
	const folder = join(path, "..");
	if (!existsSync(folder)) {
		mkdirSync(folder, { recursive: true });
		chownSync(folder, sshd.uid, sshd.gid);
	}
	writeFileSync(path, text);
	chownSync(path, sshd.uid, sshd.gid);
}

/** Runs gantry over SSH in the remote folder; with `localGantry`, that folder is what this machine sees as its `.gantry`. */
function gantry(args: string[], localGantry?: string) {
	const wrapper = localGantry
		? [
				"unshare",
				"-m",
				"--propagation",
				"private",
				"sh",
				"-c",
				'mount --bind "$0" "$1" && shift && exec "$@"',
				localGantry,
				join(remoteFolder, ".gantry"),
			]
		: undefined;
	const target = `${sshd.username}@127.0.0.1:${sshd.port}`;
	return runCli(
		[
			"--base-url",
			llm.openaiBaseUrl,
			"--model",
			"scripted",
			"--no-session",
			"--ssh",
			target,
			"-i",
			keyFile,
			"--cwd",
			remoteFolder,
			...args,
		],
		{ cwd: local.project, home: local.home, ...(wrapper ? { wrapper } : {}) },
	);
}

function toolResults(request: number): string {
	const body = requestBody(llm, request) as { messages: { role: string; content: unknown }[] };
	return JSON.stringify(body.messages.filter((message) => message.role === "tool").map((message) => message.content));
}

describe("gantry --ssh: the project's settings come from the host", () => {
	it.skipIf(!CAN_MOUNT)("applies the host's deny rules, and never reads a local file at the remote path", async () => {
		writeRemote("alpha.txt", "keep me\n");
		writeRemote(".gantry/settings.json", JSON.stringify({ permissions: { deny: ["bash(rm:*)"] } }));
		writeRemote(".gantry/settings.local.json", JSON.stringify({ permissions: { deny: ["write"] } }));
		// This machine's file at the same path would allow everything, and is not even valid JSON.
		const localView = mkdtempSync(join(tmpdir(), "gantry-local-view-"));
		writeFileSync(join(localView, "settings.json"), '{ "permissions": { "allow": ["bash"] }, oops');
		try {
			const calls = llm.requests.length;
			llm.enqueue(
				{ toolCalls: [{ name: "bash", arguments: { command: "rm alpha.txt" } }] },
				{ toolCalls: [{ name: "write", arguments: { path: "beta.txt", content: "new" } }] },
				{ text: "Both refused." },
			);
			const run = await gantry(["--yes", "-p", "Clean up"], localView);
			expect(run.stderr).not.toContain("not valid JSON");
			expect(run.stdout).toBe("Both refused.\n");
			expect(run.code).toBe(0);
			expect(toolResults(calls + 1)).toContain("the deny rule bash(rm:*)");
			expect(toolResults(calls + 2)).toContain("the deny rule write");
			expect(existsSync(join(remoteFolder, "alpha.txt"))).toBe(true);
			expect(existsSync(join(remoteFolder, "beta.txt"))).toBe(false);
		} finally {
			rmSync(localView, { recursive: true, force: true });
		}
	});

	it("stops the run for a malformed settings file on the host, naming it there", async () => {
		writeRemote(".gantry/settings.local.json", "{ oops");
		const calls = llm.requests.length;
		const run = await gantry(["-p", "hi"]);
		expect(run.code).toBe(1);
		const where = `${sshd.username}@127.0.0.1:${sshd.port}:${remoteFolder}/.gantry/settings.local.json`;
		expect(run.stderr).toContain(`gantry: ${where}: is not valid JSON`);
		expect(llm.requests).toHaveLength(calls);
	});

	it("does not start the MCP servers of the host's .mcp.json, and says so", async () => {
		const marker = join(local.root, "mcp-started");
		const server = {
			command: process.execPath,
			args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`],
		};
		writeRemote(".mcp.json", JSON.stringify({ mcpServers: { project: server } }));
		llm.enqueue({ text: "Hello." });
		const run = await gantry(["-p", "hi"]);
		expect(run.stdout).toBe("Hello.\n");
		expect(run.code).toBe(0);
		expect(run.stderr).toContain(
			`gantry: ${sshd.username}@127.0.0.1:${sshd.port}:${remoteFolder}/.mcp.json is not used over --ssh: its MCP servers are not started`,
		);
		expect(existsSync(marker)).toBe(false);
	});

	it.skipIf(!HAS_TMUX)("in interactive mode says under the banner that the host's .mcp.json is not used", async () => {
		writeRemote(".mcp.json", JSON.stringify({ mcpServers: { project: { command: "true" } } }));
		const target = `${sshd.username}@127.0.0.1:${sshd.port}`;
		const command = [process.execPath, CLI_ENTRY, "--base-url", llm.openaiBaseUrl, "--model", "scripted"];
		command.push("--no-session", "--ssh", target, "-i", keyFile, "--cwd", remoteFolder);
		const terminal = TmuxTerminal.start(command, { cwd: local.project, env: { HOME: local.home }, width: 200 });
		try {
			await terminal.waitFor("Type a prompt");
			const notice = await terminal.waitFor(`${target}:${remoteFolder}/.mcp.json is not used over --ssh`);
			expect(notice.indexOf("Type a prompt")).toBeLessThan(notice.indexOf(".mcp.json is not used"));
			terminal.press("C-d");
			await terminal.waitFor("EXITED:0");
		} finally {
			terminal.kill();
		}
	});
});
