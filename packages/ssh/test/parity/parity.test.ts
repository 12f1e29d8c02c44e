import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalWorkspace, type Workspace } from "@gantry/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SshWorkspace } from "../../src/index.js";
import { startTestSshServer, type TestSshServer } from "../../src/testing/index.js";
import { connectTestWorkspace } from "../helpers/workspace.js";
import { type ParityCall, runCall } from "./compare.js";
import { writeProject } from "./fixture.js";

let server: TestSshServer;
let remote: SshWorkspace;
let local: Workspace;
let localFolder: string;
let localTemp: string;
let remoteFolder: string;

beforeAll(async () => {
	server = await startTestSshServer();
	remoteFolder = await server.makeRemoteFolder();
	localFolder = await mkdtemp(join(tmpdir(), "gantry-parity-local-"));
	localTemp = await mkdtemp(join(tmpdir(), "gantry-parity-temp-"));
	await writeProject(localFolder);
	await writeProject(remoteFolder, { uid: server.uid, gid: server.gid });
	local = createLocalWorkspace(localFolder, { tempDir: localTemp });
	remote = await connectTestWorkspace(server, remoteFolder);
}, 60_000);
afterAll(async () => {
	await remote?.close();
	await server?.stop();
	for (const folder of [localFolder, localTemp, remoteFolder])
		if (folder) await rm(folder, { recursive: true, force: true });
});

/** Calls that change nothing: each runs once per side. */
const READ_ONLY: [string, ParityCall][] = [
	["read a page with a continuation hint", { tool: "read", args: { path: "notes.txt" } }],
	["read with offset and limit", { tool: "read", args: { path: "notes.txt", offset: 2990, limit: 5 } }],
	["read past the end", { tool: "read", args: { path: "notes.txt", offset: 9000 } }],
	["read a CRLF file with a BOM", { tool: "read", args: { path: "crlf.txt" } }],
	["read a binary file", { tool: "read", args: { path: "binary.bin" } }],
	["read an image (resized)", { tool: "read", args: { path: "picture.png" } }],
	["read through a link", { tool: "read", args: { path: "link-to-main.ts" } }],
	["read a missing file", { tool: "read", args: { path: "missing.txt" } }],
	["read a folder", { tool: "read", args: { path: "src" } }],
	["ls the project", { tool: "ls", args: {} }],
	["ls a subfolder", { tool: "ls", args: { path: "src" } }],
	["ls with a limit", { tool: "ls", args: { path: ".", limit: 3 } }],
	["ls a missing folder", { tool: "ls", args: { path: "nope" } }],
	["ls a file", { tool: "ls", args: { path: "notes.txt" } }],
	["find *.ts", { tool: "find", args: { pattern: "*.ts" } }],
	["find src/**", { tool: "find", args: { pattern: "src/**" } }],
	["find ignored files", { tool: "find", args: { pattern: "*.log" } }],
	["find nothing", { tool: "find", args: { pattern: "*.nothing" } }],
	["find with brace alternatives", { tool: "find", args: { pattern: "{notes.txt,src/deep/*.ts}" } }],
	["find with a negated class", { tool: "find", args: { pattern: "src/[!m]*.ts" } }],
	["find with an excluding alternative", { tool: "find", args: { pattern: "{**/*.ts,!src/**}" } }],
	["find in a missing folder", { tool: "find", args: { pattern: "*", path: "nope" } }],
	["grep a word", { tool: "grep", args: { pattern: "needle" } }],
	["grep ignoring case with a glob", { tool: "grep", args: { pattern: "NEEDLE", ignoreCase: true, glob: "*.ts" } }],
	["grep with context", { tool: "grep", args: { pattern: "beta", path: "notes.txt", context: 1, limit: 3 } }],
	["grep literally", { tool: "grep", args: { pattern: "x * 2", literal: true } }],
	["grep for nothing", { tool: "grep", args: { pattern: "no-such-text-anywhere" } }],
	["grep a missing path", { tool: "grep", args: { pattern: "x", path: "nope" } }],
	["grep a bad pattern", { tool: "grep", args: { pattern: "(unclosed" } }],
	["bash output", { tool: "bash", args: { command: "echo hello; echo oops >&2" } }],
	["bash exit code", { tool: "bash", args: { command: "echo partial; exit 3" } }],
	["bash in the cwd", { tool: "bash", args: { command: "pwd; ls src" } }],
	["bash missing command", { tool: "bash", args: { command: "gantry-no-such-command" } }],
	["bash timeout", { tool: "bash", args: { command: "echo started; sleep 5", timeout: 1 } }],
];

describe("the same calls on a local folder and over SSH", () => {
	it.each(READ_ONLY)("%s", async (_name, call) => {
		const [here, there] = await Promise.all([runCall(local, call), runCall(remote, call)]);
		expect(there).toEqual(here);
	});

	it("both leave out what the repository's .git/info/exclude names", async () => {
		const calls: ParityCall[] = [
			{ tool: "grep", args: { pattern: "needle" } },
			{ tool: "find", args: { pattern: "*.txt" } },
		];
		for (const call of calls) {
			const [here, there] = await Promise.all([runCall(local, call), runCall(remote, call)]);
			expect(JSON.stringify(here)).not.toContain("excluded.txt");
			expect(there).toEqual(here);
		}
	});
});
