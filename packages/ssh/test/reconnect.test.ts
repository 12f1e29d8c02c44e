import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SshError } from "../src/index.js";
import { startTestSshServer, type TestSshServer } from "../src/testing/index.js";
import { connectTestWorkspace } from "./helpers/workspace.js";

let server: TestSshServer;
let folder: string;

beforeAll(async () => {
	server = await startTestSshServer();
	folder = await server.makeRemoteFolder();
});
afterAll(async () => {
	await server?.stop();
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** How many live handles of each kind Node has. */
function activeResources(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
	return counts;
}

describe("a connection lost mid-session", () => {
	it("connects again transparently when the server is back", async () => {
		const workspace = await connectTestWorkspace(server, folder);
		await workspace.fs.writeFileAtomic(join(folder, "before.txt"), Buffer.from("1"));
		await server.restart();
		await workspace.fs.writeFileAtomic(join(folder, "after.txt"), Buffer.from("2"));
		expect(Buffer.from(await workspace.fs.readFile(join(folder, "after.txt"))).toString()).toBe("2");
		await workspace.close();
	});

	it("fails the next operation with connection_lost when the server stays away, and recovers later", async () => {
		const workspace = await connectTestWorkspace(server, folder);
		await server.kill();
		const error = await workspace.fs.stat(folder).catch((reason: unknown) => reason);
		expect(error).toBeInstanceOf(SshError);
		expect((error as SshError).code).toBe("connection_lost");
		expect((error as SshError).message).toMatch(/was lost .* connecting again failed: .*connection refused/);
		const spawned = await workspace.processes
			.spawn("true", [], { cwd: folder })
			.catch((reason: unknown) => reason as SshError);
		expect(spawned).toMatchObject({ code: "connection_lost" });
		await server.restart();
		expect(await workspace.fs.stat(folder)).toMatchObject({ kind: "directory" });
		await workspace.close();
	});

	it("fails a command running when the connection drops, without crashing", async () => {
		const workspace = await connectTestWorkspace(server, folder);
		const running = workspace.processes.spawn("sleep", ["20"], { cwd: folder }).catch((reason: unknown) => reason);
		await new Promise((resolve) => setTimeout(resolve, 300));
		await server.kill();
		expect(await running).toMatchObject({ code: "connection_lost" });
		await server.restart();
		await workspace.close();
	});
});

describe("close", () => {
	it("leaves no socket or timer that keeps Node alive, and later calls fail clearly", async () => {
		const before = activeResources();
		const workspace = await connectTestWorkspace(server, folder);
		await workspace.fs.stat(folder);
		await workspace.processes.spawn("true", [], { cwd: folder });
		expect(activeResources().TCPSocketWrap ?? 0).toBeGreaterThan(before.TCPSocketWrap ?? 0);
		const tempDir = workspace.tempDir;
		await workspace.close();
		await workspace.close();
		await new Promise((resolve) => setImmediate(resolve));
		const after = activeResources();
		for (const [kind, count] of Object.entries(after))
			expect({ kind, count }).toEqual({ kind, count: Math.min(count, before[kind] ?? 0) });
		await expect(workspace.fs.stat(tempDir)).rejects.toThrow(/is closed/);
		await expect(import("node:fs/promises").then((fs) => fs.stat(tempDir))).rejects.toMatchObject({ code: "ENOENT" });
	});
});
