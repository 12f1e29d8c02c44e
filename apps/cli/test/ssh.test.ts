import { chownSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedLlmServer, startScriptedLlmServer } from "@gantry/ai/testing";
import { startTestSshServer, type TestSshServer } from "@gantry/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSshTarget } from "../src/remote/ssh-target.js";
import { requestBody } from "./helpers/recorded-requests.js";
import { makeWorkspace, runCli } from "./helpers/run-cli.js";

let sshd: TestSshServer;
let llm: ScriptedLlmServer;
let local: ReturnType<typeof makeWorkspace>;
let remoteFolder: string;
let keyFile: string;

beforeAll(async () => {
	sshd = await startTestSshServer();
	llm = await startScriptedLlmServer();
	local = makeWorkspace();
	remoteFolder = await sshd.makeRemoteFolder();
	for (const name of ["alpha.txt", "beta.txt"]) {
		writeFileSync(join(remoteFolder, name), `${name}\n`);
		chownSync(join(remoteFolder, name), sshd.uid, sshd.gid);
	}
	mkdirSync(join(local.home, ".ssh"), { recursive: true });
	writeFileSync(join(local.home, ".ssh", "known_hosts"), `[127.0.0.1]:${sshd.port} ${sshd.hostKeyLine}\n`);
	keyFile = join(local.root, "client-key");
	writeFileSync(keyFile, sshd.clientKey, { mode: 0o600 });
}, 60_000);
afterAll(async () => {
	await llm?.close();
	await sshd?.stop();
	local?.remove();
	if (remoteFolder) rmSync(remoteFolder, { recursive: true, force: true });
});

function gantry(args: string[], env?: Record<string, string>) {
	return runCli(["--base-url", llm.openaiBaseUrl, "--model", "scripted", "--no-session", ...args], {
		cwd: local.project,
		home: local.home,
		env,
	});
}

describe("gantry --ssh", () => {
	it("lists the remote folder, and says so in the system prompt and the tool frame", async () => {
		llm.enqueue({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "Two files." });
		const target = `${sshd.username}@127.0.0.1:${sshd.port}`;
		const run = await gantry(["--ssh", target, "-i", keyFile, "--cwd", remoteFolder, "-p", "What is here?"]);
		expect(run.stdout).toBe("Two files.\n");
		expect(run.code).toBe(0);
		const request = requestBody(llm, 1) as { messages: { role: string; content: unknown }[] };
		const system = JSON.stringify(request.messages.find((message) => message.role === "system")?.content);
		expect(system).toContain(`${remoteFolder} (on ${target})`);
		const toolResult = request.messages.find((message) => message.role === "tool");
		expect(JSON.stringify(toolResult?.content)).toContain("alpha.txt\\nbeta.txt");
		expect(run.stderr).toContain(`on ${target}`);
	});

	it("takes the target from GANTRY_SSH, and fails clearly for an unknown host key", async () => {
		writeFileSync(join(local.home, ".ssh", "known_hosts"), "");
		const run = await gantry(["-i", keyFile, "--cwd", remoteFolder, "-p", "hi"], {
			GANTRY_SSH: `${sshd.username}@127.0.0.1:${sshd.port}`,
		});
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("is unknown");
		expect(run.stderr).not.toMatch(/connection refused/i);
		expect(run.stderr).toContain("known_hosts");
		expect(llm.requests).toHaveLength(2);
		writeFileSync(join(local.home, ".ssh", "known_hosts"), `[127.0.0.1]:${sshd.port} ${sshd.hostKeyLine}\n`);
	});

	it("--demo stays local and refuses --ssh", async () => {
		const run = await runCli(["--demo", "--ssh", "me@host"], { cwd: local.project, home: local.home });
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("--ssh");
	});
});

describe("parseSshTarget", () => {
	it("reads user@host, a port and bracketed addresses", () => {
		expect(parseSshTarget("me@devbox")).toEqual({ username: "me", host: "devbox", port: 22 });
		expect(parseSshTarget("me@devbox:2222")).toEqual({ username: "me", host: "devbox", port: 2222 });
		expect(parseSshTarget("me@[::1]:2200")).toEqual({ username: "me", host: "::1", port: 2200 });
		expect(() => parseSshTarget("devbox")).toThrow("user@host");
		expect(() => parseSshTarget("me@devbox:99999")).toThrow("port");
	});
});
