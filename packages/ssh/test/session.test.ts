import { chown, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import type { ExtensionAPI } from "@gantry/extensions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import { startTestSshServer, type TestSshServer } from "../src/testing/index.js";
import { connectTestWorkspace } from "./helpers/workspace.js";

let server: TestSshServer;
let workspace: SshWorkspace;
let folder: string;

beforeAll(async () => {
	server = await startTestSshServer();
	folder = await server.makeRemoteFolder();
	await writeFile(join(folder, "todo.txt"), "status: open\n");
	await chown(join(folder, "todo.txt"), server.uid, server.gid);
	workspace = await connectTestWorkspace(server, folder);
});
afterAll(async () => {
	await workspace?.close();
	await server?.stop();
	if (folder) await rm(folder, { recursive: true, force: true });
});

type ToolResultMessage = {
	role: "toolResult";
	toolName: string;
	isError: boolean;
	content: { type: string; text?: string }[];
};

describe("a session over an SSH workspace", () => {
	it("runs the model's ls, read, edit and bash on the host", async () => {
		const model = createFauxModel([
			{ toolCalls: [{ name: "ls", arguments: {} }] },
			{ toolCalls: [{ name: "read", arguments: { path: "todo.txt" } }] },
			{ toolCalls: [{ name: "edit", arguments: { path: "todo.txt", edits: [{ oldText: "open", newText: "done" }] } }] },
			{ toolCalls: [{ name: "bash", arguments: { command: "id -u; pwd; cat todo.txt" } }] },
			{ text: "All done." },
		]);
		const seenCwds: string[] = [];
		const session = await createAgentSession({
			workspace,
			model,
			tools: ["ls", "read", "edit", "bash"],
			extensions: [
				(api: ExtensionAPI) => {
					api.on("tool_call", (_event, ctx) => {
						seenCwds.push(ctx.cwd);
					});
				},
			],
		});
		try {
			await session.prompt("Close the todo.");
			expect(session.systemPrompt).toContain(`${folder} (on ${workspace.label})`);
		} finally {
			await session.dispose();
		}
		const results = session.messages.filter(
			(message) => (message as { role: string }).role === "toolResult",
		) as unknown as ToolResultMessage[];
		const texts = results.map((result) => result.content.map((block) => block.text ?? "").join(""));
		expect(results.map((result) => [result.toolName, result.isError])).toEqual([
			["ls", false],
			["read", false],
			["edit", false],
			["bash", false],
		]);
		expect(texts[0]).toBe("todo.txt");
		expect(texts[1]).toContain("status: open");
		expect(texts[3]).toBe(`${server.uid}\n${folder}\nstatus: done`);
		expect(await readFile(join(folder, "todo.txt"), "utf8")).toBe("status: done\n");
		expect((await stat(join(folder, "todo.txt"))).uid).toBe(server.uid);
		expect(new Set(seenCwds)).toEqual(new Set([folder]));
	});

	it("closes the workspace on dispose, unless asked to keep it open", async () => {
		const own = await connectTestWorkspace(server, folder);
		const kept = await connectTestWorkspace(server, folder);
		try {
			const model = createFauxModel([{ text: "Nothing to do." }, { text: "Nothing to do." }]);
			const closing = await createAgentSession({ workspace: own, model, tools: ["ls"] });
			await closing.dispose();
			await expect(own.fs.stat(folder)).rejects.toThrow(/closed/);

			const keeping = await createAgentSession({ workspace: kept, model, tools: ["ls"], keepWorkspaceOpen: true });
			await keeping.dispose();
			expect((await kept.fs.stat(folder))?.kind).toBe("directory");
		} finally {
			await own.close();
			await kept.close();
		}
	});
});
