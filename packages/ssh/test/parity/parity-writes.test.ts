import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalWorkspace, type Workspace } from "@gantry/tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SshWorkspace } from "../../src/index.js";
import { startTestSshServer, type TestSshServer } from "../../src/testing/index.js";
import { connectTestWorkspace } from "../helpers/workspace.js";
import { type ParityCall, runCall } from "./compare.js";
import { writeProject } from "./fixture.js";

let server: TestSshServer;
let remote: SshWorkspace;
let local: Workspace;
let localTemp: string;
const folders: string[] = [];

beforeAll(async () => {
	server = await startTestSshServer();
	localTemp = await mkdtemp(join(tmpdir(), "gantry-parity-temp-"));
	folders.push(localTemp);
}, 60_000);
afterAll(async () => {
	await remote?.close();
	await server?.stop();
	for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** Fresh identical projects for each test: the calls change them. */
beforeEach(async () => {
	await remote?.close();
	const localFolder = await mkdtemp(join(tmpdir(), "gantry-parity-local-"));
	const remoteFolder = await server.makeRemoteFolder();
	folders.push(localFolder, remoteFolder);
	await writeProject(localFolder);
	await writeProject(remoteFolder, { uid: server.uid, gid: server.gid });
	local = createLocalWorkspace(localFolder, { tempDir: localTemp });
	remote = await connectTestWorkspace(server, remoteFolder);
});

/** Each entry is a sequence of calls on one project, then the files whose bytes must match. */
const CHANGES: [string, ParityCall[], string[]][] = [
	[
		"write a new file in new folders",
		[{ tool: "write", args: { path: "sub/dir/new.txt", content: "fresh\n" } }],
		["sub/dir/new.txt"],
	],
	["overwrite a file", [{ tool: "write", args: { path: "notes.txt", content: "short\n" } }], ["notes.txt"]],
	["write over a folder", [{ tool: "write", args: { path: "src", content: "x" } }], []],
	[
		"edit keeps CRLF and the BOM",
		[{ tool: "edit", args: { path: "crlf.txt", edits: [{ oldText: "second line", newText: "2nd line\nand more" }] } }],
		["crlf.txt"],
	],
	[
		"edit several places, then read the result",
		[
			{
				tool: "edit",
				args: {
					path: "src/util.ts",
					edits: [
						{ oldText: "twice", newText: "double" },
						{ oldText: "x * 2", newText: "x + x" },
					],
				},
			},
			{ tool: "read", args: { path: "src/util.ts" } },
		],
		["src/util.ts"],
	],
	[
		"edit text that is not there",
		[{ tool: "edit", args: { path: "src/main.ts", edits: [{ oldText: "absent", newText: "y" }] } }],
		["src/main.ts"],
	],
	[
		"edit an ambiguous match",
		[{ tool: "edit", args: { path: "notes.txt", edits: [{ oldText: "beta", newText: "B" }] } }],
		["notes.txt"],
	],
	[
		"edit a missing file",
		[{ tool: "edit", args: { path: "missing.ts", edits: [{ oldText: "a", newText: "b" }] } }],
		[],
	],
	[
		"edit through a link",
		[{ tool: "edit", args: { path: "link-to-main.ts", edits: [{ oldText: "hello", newText: "bye" }] } }],
		["src/main.ts"],
	],
	[
		"apply_patch: update (CRLF and the BOM kept), move, add and delete in one patch",
		[
			{
				tool: "apply_patch",
				args: {
					input: [
						"*** Begin Patch",
						"*** Update File: crlf.txt",
						" first line",
						"-second line",
						"+2nd line",
						"*** Update File: src/util.ts",
						"*** Move to: lib/util.ts",
						"@@ export function twice(x: number) {",
						"-\treturn x * 2;",
						"+\treturn x + x;",
						"*** Add File: docs/new.md",
						"+# New",
						"*** Delete File: src/deep/inner.ts",
						"*** End Patch",
					].join("\n"),
				},
			},
		],
		["crlf.txt", "lib/util.ts", "docs/new.md"],
	],
	[
		"apply_patch: a hunk that does not apply writes nothing",
		[
			{
				tool: "apply_patch",
				args: {
					input:
						"*** Begin Patch\n*** Add File: made.txt\n+x\n*** Update File: src/main.ts\n-absent\n+y\n*** End Patch",
				},
			},
			{ tool: "read", args: { path: "made.txt" } },
		],
		["src/main.ts"],
	],
];

describe("changes give the same results and the same bytes", () => {
	it.each(CHANGES)("%s", async (_name, calls, files) => {
		for (const call of calls) {
			const here = await runCall(local, call);
			const there = await runCall(remote, call);
			expect(there).toEqual(here);
		}
		for (const file of files) {
			const there = await readFile(join(remote.cwd, file));
			expect(there.equals(await readFile(join(local.cwd, file)))).toBe(true);
			// Written over SSH: the file belongs to the remote user, not to root who runs the tests.
			expect((await stat(join(remote.cwd, file))).uid).toBe(server.uid);
		}
	});
});
