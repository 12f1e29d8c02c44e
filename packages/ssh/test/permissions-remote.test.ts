// The permission policy judges a call's path on the SSH host: its home for `~`, its links. The "remote"
// host is this machine under another user, so the one thing that tells them apart here is the home.
import { randomBytes } from "node:crypto";
import { chown, lchown, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession, createPermissionPolicy } from "@gantry/coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import { startTestSshServer, type TestSshServer } from "../src/testing/index.js";
import { connectTestWorkspace } from "./helpers/workspace.js";

let server: TestSshServer;
let workspace: SshWorkspace;
let folder: string;
let homeLink: string;

async function own(path: string): Promise<void> {
	await lchown(path, server.uid, server.gid);
}

beforeAll(async () => {
	server = await startTestSshServer();
	folder = await server.makeRemoteFolder();
	await mkdir(join(folder, "secret"));
	await chown(join(folder, "secret"), server.uid, server.gid);
	for (const name of ["secret/key.txt", "notes.txt"]) {
		await writeFile(join(folder, name), "status: open\n");
		await own(join(folder, name));
	}
	await symlink("secret/key.txt", join(folder, "innocent"));
	await own(join(folder, "innocent"));
	// A link in the remote user's home (not this machine's) that leads into the project's secret folder.
	homeLink = `gantry-permission-link-${randomBytes(4).toString("hex")}`;
	await symlink(join(folder, "secret", "key.txt"), join(server.home, homeLink));
	await own(join(server.home, homeLink));
	workspace = await connectTestWorkspace(server, folder);
});
afterAll(async () => {
	await workspace?.close();
	await server?.stop();
	if (folder) await rm(folder, { recursive: true, force: true });
	if (homeLink) await rm(join(server.home, homeLink), { force: true });
});

const edit = (path: string) => ({
	name: "edit",
	arguments: { path, edits: [{ oldText: "open", newText: "leaked" }] },
});

describe("path rules over an SSH workspace", () => {
	it("block an edit through a remote link into a denied folder, from the project and from ~", async () => {
		const model = createFauxModel([
			{ toolCalls: [edit("innocent"), edit(`~/${homeLink}`), edit("secret/key.txt"), edit("notes.txt")] },
			{ text: "done" },
		]);
		const session = await createAgentSession({
			workspace,
			model,
			tools: ["edit"],
			keepWorkspaceOpen: true,
			extensions: [createPermissionPolicy({ mode: "yes", permissions: { deny: ["edit(secret/**)"] } })],
		});
		try {
			await session.prompt("edit them");
		} finally {
			await session.dispose();
		}
		const results = session.messages.filter((message) => (message as { role: string }).role === "toolResult") as {
			isError: boolean;
			content: { text?: string }[];
		}[];
		const outcomes = results.map((result) => (result.isError ? (result.content[0]?.text ?? "") : "ran"));
		expect(outcomes.slice(0, 3)).toEqual([
			expect.stringContaining("denied by the deny rule edit(secret/**)"),
			expect.stringContaining("denied by the deny rule edit(secret/**)"),
			expect.stringContaining("denied by the deny rule edit(secret/**)"),
		]);
		expect(outcomes[3]).toBe("ran");
		expect(await readFile(join(folder, "secret", "key.txt"), "utf8")).toBe("status: open\n");
		expect(await readFile(join(folder, "notes.txt"), "utf8")).toBe("status: leaked\n");
	});
});
