import { rm } from "node:fs/promises";
import { afterAll, beforeAll } from "vitest";
import { createSshWorkspace, type SshWorkspace, type SshWorkspaceOptions } from "../../src/index.js";
import { startTestSshServer, type TestSshServer } from "../../src/testing/index.js";

/**
 * Connects to the test server as its unprivileged user, trusting its host key; `overrides` replace
 * options and the options named in `without` are left out.
 */
export function connectTestWorkspace(
	server: TestSshServer,
	cwd: string,
	overrides: Partial<SshWorkspaceOptions> = {},
	without: readonly ("privateKey" | "hostKey")[] = [],
): Promise<SshWorkspace> {
	const options: SshWorkspaceOptions = {
		host: server.host,
		port: server.port,
		username: server.username,
		privateKey: server.clientKey,
		hostKey: server.hostKeyLine,
		cwd,
		...overrides,
	};
	for (const key of without) delete options[key];
	return createSshWorkspace(options);
}

/** What `useRemoteWorkspace` hands each test file. */
export interface RemoteFixture {
	server: TestSshServer;
	folder: string;
	workspace: SshWorkspace;
}

/**
 * Starts the test sshd, an empty remote folder and a workspace on it once for the file (`set` receives
 * them), and closes, stops and removes all three after it.
 */
export function useRemoteWorkspace(set: (fixture: RemoteFixture) => void | Promise<void>): void {
	let fixture: Partial<RemoteFixture> = {};
	beforeAll(async () => {
		const server = await startTestSshServer();
		fixture.server = server;
		const folder = await server.makeRemoteFolder();
		fixture.folder = folder;
		const workspace = await connectTestWorkspace(server, folder);
		fixture.workspace = workspace;
		await set({ server, folder, workspace });
	});
	afterAll(async () => {
		await fixture.workspace?.close();
		await fixture.server?.stop();
		if (fixture.folder) await rm(fixture.folder, { recursive: true, force: true });
		fixture = {};
	});
}
