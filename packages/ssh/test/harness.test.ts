import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSshServer, type TestSshServer } from "../src/testing/index.js";

const run = promisify(execFile);
let server: TestSshServer;

beforeAll(async () => {
	server = await startTestSshServer();
});
afterAll(async () => {
	await server?.stop();
});

describe("the test sshd", () => {
	it("accepts the client key for the unprivileged user", async () => {
		const { stdout } = await run("ssh", [
			"-i",
			`${server.folder}/client_ed25519`,
			"-p",
			String(server.port),
			"-o",
			"StrictHostKeyChecking=no",
			"-o",
			"UserKnownHostsFile=/dev/null",
			"-o",
			"BatchMode=yes",
			`${server.username}@127.0.0.1`,
			"id -u",
		]);
		expect(Number(stdout.trim())).toBe(server.uid);
		expect(server.uid).not.toBe(0);
	});
});
