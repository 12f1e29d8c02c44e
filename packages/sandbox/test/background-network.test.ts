import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSandboxedWorkspace, SandboxError, type SandboxedWorkspace } from "../src/index.js";
import { bash, localWorkspace, makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

let place: Place;
const workspaces: SandboxedWorkspace[] = [];
const servers: Server[] = [];

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	await Promise.all(workspaces.splice(0).map((workspace) => workspace.close()));
	await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
	await removePlace(place);
});

async function httpServer(body: string): Promise<number> {
	const server = createServer((_request, response) => response.end(body));
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return (server.address() as AddressInfo).port;
}

/** The programs this process has started and that still run (its children, read from /proc). */
function childPrograms(): string[] {
	const tasks = readdirSync(`/proc/${process.pid}/task`);
	const children = tasks.flatMap((task) =>
		readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean),
	);
	return children.flatMap((pid) => {
		try {
			return [readFileSync(`/proc/${pid}/comm`, "utf8").trim()];
		} catch {
			return [];
		}
	});
}

const curl = (port: number) => `env -u NO_PROXY -u no_proxy curl -fsS --max-time 20 http://127.0.0.1:${port}/`;

describe("an allow list's network, started after set-up", () => {
	it("is waited for by commands issued as soon as the workspace is returned", async () => {
		const allowedPort = await httpServer("allowed answer");
		const otherPort = await httpServer("other answer");
		const workspace = await sandboxed(place, { network: { allowedDomains: [`127.0.0.1:${allowedPort}`] } });
		workspaces.push(workspace);
		expect(workspace.sandbox.active).toBe(true);
		// One after the other: commands of one workspace running at once share its refused-connection notes.
		const allowed = await bash(workspace, curl(allowedPort));
		expect(allowed.text).toBe("allowed answer");
		const refused = await bash(workspace, curl(otherPort));
		expect(refused.exitCode).not.toBe(0);
		expect(refused.text).not.toContain("other answer");
		expect(refused.text).toContain(
			`[sandbox] The sandbox refused a connection to 127.0.0.1:${otherPort}: it is not in sandbox.network.allowedDomains`,
		);
	});

	it("leaves no proxy bridge or relay behind when the workspace is closed while it starts", async () => {
		const workspace = await sandboxed(place, { network: { allowedDomains: ["example.com"] } });
		await workspace.close();
		// It was stopped part-way (the proxy's bridges alone take 100 ms or more to start), not finished first.
		expect(workspace.sandbox.reason).toMatch(/closed while its network started/);
		expect(childPrograms()).not.toContain("socat");
		expect(childPrograms()).not.toContain("bwrap");
		// sandbox-runtime's manager was reset: the next workspace starts its network anew.
		const port = await httpServer("after a close");
		const next = await sandboxed(place, { network: { allowedDomains: [`127.0.0.1:${port}`] } });
		workspaces.push(next);
		expect((await bash(next, curl(port))).text).toBe("after a close");
		expect(childPrograms()).toContain("socat");
	});

	it("throws invalid_option at set-up for a host sandbox-runtime's own rules refuse", async () => {
		for (const network of [
			{ allowedDomains: ["*.com"] },
			{ allowedDomains: ["*"] },
			{ allowedDomains: ["2001:db8::1"] },
			{ deniedDomains: ["*.com"] },
		]) {
			const attempt = createSandboxedWorkspace(localWorkspace(place), { enabled: true, network });
			await expect(attempt).rejects.toBeInstanceOf(SandboxError);
			await expect(attempt).rejects.toMatchObject({ code: "invalid_option" });
		}
		// A bare "*" is a denied host's own form (deny all), as in sandbox-runtime's schema.
		const denyAll = await sandboxed(place, { network: { allowedDomains: ["example.com"], deniedDomains: ["*"] } });
		workspaces.push(denyAll);
		expect(denyAll.sandbox.active).toBe(true);
		expect(readdirSync(place.temp)).toHaveLength(2);
	});
});
