import { createHmac, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

/** Starts `promise`, and returns its rejection and how long it took. */
async function failure(promise: Promise<unknown>): Promise<{ error: SshError; seconds: number }> {
	const started = performance.now();
	const error = await promise.then(
		() => {
			throw new Error("expected a failure");
		},
		(reason: unknown) => reason,
	);
	expect(error).toBeInstanceOf(SshError);
	return { error: error as SshError, seconds: (performance.now() - started) / 1000 };
}

describe("failing to connect", () => {
	it("names a rejected key", async () => {
		const { error, seconds } = await failure(connectTestWorkspace(server, folder, { privateKey: server.strangerKey }));
		expect(error.code).toBe("authentication_failed");
		expect(error.message).toContain(`refused the login of ${server.username}`);
		expect(seconds).toBeLessThan(10);
	});

	it("names a refused port", async () => {
		const { error, seconds } = await failure(connectTestWorkspace(server, folder, { port: 1 }));
		expect(error.code).toBe("connection_failed");
		expect(error.message).toContain("connection refused");
		expect(seconds).toBeLessThan(10);
	});

	it("refuses a host key that does not equal hostKey", async () => {
		const other = `ssh-ed25519 ${Buffer.concat([Buffer.from("\0\0\0\x0bssh-ed25519\0\0\0\x20", "latin1"), randomBytes(32)]).toString("base64")}`;
		const { error } = await failure(connectTestWorkspace(server, folder, { hostKey: other }));
		expect(error.code).toBe("host_key_mismatch");
		expect(error.message).toMatch(/ssh-ed25519 SHA256:/);
	});

	it("refuses a host key the hostKey function rejects, and accepts one it trusts", async () => {
		const { error } = await failure(connectTestWorkspace(server, folder, { hostKey: () => false }));
		expect(error.code).toBe("host_key_unknown");
		const offered: Buffer[] = [];
		const workspace = await connectTestWorkspace(server, folder, {
			hostKey: (key) => {
				offered.push(key);
				return true;
			},
		});
		await workspace.close();
		expect(offered[0]?.toString("base64")).toBe(server.hostKeyLine.split(" ")[1]);
	});

	it("says which remote folder is missing", async () => {
		const { error } = await failure(connectTestWorkspace(server, join(folder, "missing")));
		expect(error.code).toBe("remote_setup_failed");
		expect(error.message).toContain(`${join(folder, "missing")} does not exist`);
	});

	it("names a host whose sshd offers no SFTP, and how to enable it", async () => {
		const bare = await startTestSshServer({ sftp: false });
		try {
			const place = await bare.makeRemoteFolder();
			const { error, seconds } = await failure(connectTestWorkspace(bare, place));
			expect(error.code).toBe("sftp_unavailable");
			expect(error.message).toContain("does not offer SFTP");
			expect(error.message).toContain("Subsystem sftp");
			expect(seconds).toBeLessThan(10);
			await rm(place, { recursive: true, force: true });
		} finally {
			await bare.stop();
		}
	});

	it("asks for a credential when none is given", async () => {
		const { error } = await failure(connectTestWorkspace(server, folder, {}, ["privateKey"]));
		expect(error.code).toBe("invalid_options");
	});
});

describe("~/.ssh/known_hosts", () => {
	const savedHome = process.env.HOME;
	let home: string;

	beforeAll(async () => {
		home = await mkdtemp(join(tmpdir(), "gantry-home-"));
		await mkdir(join(home, ".ssh"));
	});
	afterEach(() => {
		process.env.HOME = savedHome;
	});
	afterAll(async () => {
		await rm(home, { recursive: true, force: true });
	});

	async function withKnownHosts(text: string) {
		await writeFile(join(home, ".ssh", "known_hosts"), text);
		process.env.HOME = home;
		return connectTestWorkspace(server, folder, {}, ["hostKey"]);
	}

	it("refuses a host that is not in the file, naming the fingerprint and the file", async () => {
		const { error, seconds } = await failure(withKnownHosts("# nothing here\n"));
		expect(error.code).toBe("host_key_unknown");
		// The port was open: nothing in the text may read like a refused TCP connection.
		expect(error.message).not.toMatch(/connection refused/i);
		expect(error.message).toContain(join(home, ".ssh", "known_hosts"));
		expect(error.message).toMatch(/SHA256:[A-Za-z0-9+/]{43}/);
		expect(seconds).toBeLessThan(10);
	});

	it("accepts a [host]:port entry", async () => {
		const workspace = await withKnownHosts(`[127.0.0.1]:${server.port} ${server.hostKeyLine}\n`);
		await workspace.close();
	});

	it("accepts a hashed entry", async () => {
		const salt = randomBytes(20);
		const hash = createHmac("sha1", salt).update(`[127.0.0.1]:${server.port}`).digest("base64");
		const workspace = await withKnownHosts(`|1|${salt.toString("base64")}|${hash} ${server.hostKeyLine}\n`);
		await workspace.close();
	});

	it("refuses a changed key, saying it changed", async () => {
		const { error } = await failure(
			withKnownHosts(
				`[127.0.0.1]:${server.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHUiDRe6iUWvrNNPs2gl8SWDYeZhrqGNEOrNi9ZqlYdX\n`,
			),
		);
		expect(error.code).toBe("host_key_mismatch");
		expect(error.message).toContain("CHANGED");
		expect(error.message).not.toMatch(/connection refused/i);
	});

	it("does not take an entry for the same host on port 22", async () => {
		const { error } = await failure(withKnownHosts(`127.0.0.1 ${server.hostKeyLine}\n`));
		expect(error.code).toBe("host_key_unknown");
	});
});
