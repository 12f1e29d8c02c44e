import type { Server } from "node:http";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxedWorkspace } from "../src/index.js";
import { answeringServer, bash, curlThroughProxy, makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

let place: Place;
let workspace: SandboxedWorkspace | undefined;
const servers: (Server | NetServer)[] = [];

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	await workspace?.close();
	workspace = undefined;
	await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
	await removePlace(place);
});

describe("a sandboxed command's network", () => {
	it("reaches no host when no domain is allowed (sandbox-runtime alone would leave the network open)", async () => {
		const port = await answeringServer("reachable", (server) => servers.push(server));
		workspace = await sandboxed(place);
		const result = await bash(workspace, curlThroughProxy(port));
		expect(result.exitCode).not.toBe(0);
		expect(result.text).not.toContain("reachable");
		const lookup = await bash(workspace, "curl -fsS --max-time 20 http://example.invalid/");
		expect(lookup.text).toContain("[sandbox] The sandbox allows no network, so example.invalid cannot be reached");
		expect(lookup.text).toContain("sandbox.network.allowedDomains");
	});

	it("cannot open a Unix socket on the host (a Docker or SSH-agent socket would reach out)", async () => {
		const socketPath = join(place.outside, "agent.sock");
		const server = createNetServer((socket) => socket.end("answered\n"));
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(socketPath, resolve));
		workspace = await sandboxed(place);
		const result = await bash(
			workspace,
			`${process.execPath} -e 'require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.log(e.code); process.exit(3); })'`,
		);
		expect(result.text).not.toContain("answered");
		expect(result.text).toMatch(/EPERM|EACCES/);
	});

	it("passes an allowed host through the proxy and refuses another, naming it and the setting", async () => {
		const allowedPort = await answeringServer("allowed answer", (server) => servers.push(server));
		const otherPort = await answeringServer("other answer", (server) => servers.push(server));
		workspace = await sandboxed(place, { network: { allowedDomains: [`127.0.0.1:${allowedPort}`] } });
		const allowed = await bash(workspace, curlThroughProxy(allowedPort));
		expect(allowed.text).toBe("allowed answer");
		const refused = await bash(workspace, curlThroughProxy(otherPort));
		expect(refused.exitCode).not.toBe(0);
		expect(refused.text).not.toContain("other answer");
		expect(refused.text).toContain(
			`[sandbox] The sandbox refused a connection to 127.0.0.1:${otherPort}: it is not in sandbox.network.allowedDomains`,
		);
	});

	it("tells each of two commands running at once only of the connections it made itself", async () => {
		const allowedPort = await answeringServer("allowed answer", (server) => servers.push(server));
		const otherPort = await answeringServer("other answer", (server) => servers.push(server));
		workspace = await sandboxed(place, { network: { allowedDomains: [`127.0.0.1:${allowedPort}`] } });
		const open = workspace;
		// The quiet command starts first and ends last: the other's refusal falls inside its whole run.
		const [quiet, refused] = await Promise.all([
			bash(open, `sleep 2; ${curlThroughProxy(allowedPort)}`),
			new Promise((resolve) => setTimeout(resolve, 300)).then(() => bash(open, curlThroughProxy(otherPort))),
		]);
		expect(refused.text).toContain(`[sandbox] The sandbox refused a connection to 127.0.0.1:${otherPort}`);
		expect(quiet.text).toBe("allowed answer");
	});

	it("cannot open a Unix socket on the host with an allow list either", async () => {
		const socketPath = join(place.outside, "agent.sock");
		const server = createNetServer((socket) => socket.end("answered\n"));
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(socketPath, resolve));
		workspace = await sandboxed(place, { network: { allowedDomains: ["example.com"] } });
		const result = await bash(
			workspace,
			`${process.execPath} -e 'require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.log(e.code); process.exit(3); })'`,
		);
		expect(result.text).not.toContain("answered");
		expect(result.text).toMatch(/EPERM|EACCES/);
	});

	it("refuses a host deniedDomains lists even when an allowed pattern covers it", async () => {
		const port = await answeringServer("should not be read", (server) => servers.push(server));
		workspace = await sandboxed(place, {
			network: { allowedDomains: ["127.0.0.1"], deniedDomains: [`127.0.0.1:${port}`] },
		});
		const result = await bash(workspace, curlThroughProxy(port));
		expect(result.text).not.toContain("should not be read");
		expect(result.text).toContain("sandbox.network.deniedDomains");
	});

	it("gives a command with an allow list a TMPDIR it can write (sandbox-runtime points it at /tmp/claude, which need not exist)", async () => {
		const port = await answeringServer("x", (server) => servers.push(server));
		workspace = await sandboxed(place, { network: { allowedDomains: [`127.0.0.1:${port}`] } });
		const result = await bash(workspace, 'echo "$TMPDIR" && echo data > "$TMPDIR/file" && cat "$TMPDIR/file"');
		expect(result.text).toBe(`${workspace.tempDir}\ndata`);
	});
});
