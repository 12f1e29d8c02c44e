import { createSshWorkspace, type SshWorkspace, type SshWorkspaceOptions } from "../../src/index.js";
import type { TestSshServer } from "../../src/testing/index.js";

/** Connects to the test server as its unprivileged user, trusting its host key. */
export function connectTestWorkspace(
	server: TestSshServer,
	cwd: string,
	overrides: Partial<SshWorkspaceOptions> = {},
): Promise<SshWorkspace> {
	return createSshWorkspace({
		host: server.host,
		port: server.port,
		username: server.username,
		privateKey: server.clientKey,
		hostKey: server.hostKeyLine,
		cwd,
		...overrides,
	});
}
