import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace, SandboxError } from "../src/index.js";
import { bash, childPrograms, curlThroughProxy, localWorkspace, placePerTest, sandboxed } from "./helpers.js";

const here = placePerTest();
const { workspaces } = here;
describe("an allow list's network, started after set-up", () => {
	it("is waited for by commands issued as soon as the workspace is returned", async () => {
		const allowedPort = await here.answering("allowed answer");
		const otherPort = await here.answering("other answer");
		const workspace = await sandboxed(here.place, { network: { allowedDomains: [`127.0.0.1:${allowedPort}`] } });
		workspaces.push(workspace);
		expect(workspace.sandbox.active).toBe(true);
		// Both issued at once, before the network is up: each waits for it, and each is told only of its own refusal.
		const [allowed, refused] = await Promise.all([
			bash(workspace, curlThroughProxy(allowedPort)),
			bash(workspace, curlThroughProxy(otherPort)),
		]);
		expect(allowed.text).toBe("allowed answer");
		expect(refused.exitCode).not.toBe(0);
		expect(refused.text).not.toContain("other answer");
		expect(refused.text).toContain(
			`[sandbox] The sandbox refused a connection to 127.0.0.1:${otherPort}: it is not in sandbox.network.allowedDomains`,
		);
	});

	it("leaves no proxy bridge or relay behind when the workspace is closed while it starts", async () => {
		const workspace = await sandboxed(here.place, { network: { allowedDomains: ["example.com"] } });
		await workspace.close();
		// It was stopped part-way (the proxy's bridges alone take 100 ms or more to start), not finished first.
		expect(workspace.sandbox.reason).toMatch(/closed while its network started/);
		expect(childPrograms()).not.toContain("socat");
		expect(childPrograms()).not.toContain("bwrap");
		// sandbox-runtime's manager was reset: the next workspace starts its network anew.
		const port = await here.answering("after a close");
		const next = await sandboxed(here.place, { network: { allowedDomains: [`127.0.0.1:${port}`] } });
		workspaces.push(next);
		expect((await bash(next, curlThroughProxy(port))).text).toBe("after a close");
		expect(childPrograms()).toContain("socat");
	});

	it("throws invalid_option at set-up for a host sandbox-runtime's own rules refuse", async () => {
		for (const network of [
			{ allowedDomains: ["*.com"] },
			{ allowedDomains: ["*"] },
			{ allowedDomains: ["2001:db8::1"] },
			{ deniedDomains: ["*.com"] },
		]) {
			const attempt = createSandboxedWorkspace(localWorkspace(here.place), { enabled: true, network });
			await expect(attempt).rejects.toBeInstanceOf(SandboxError);
			await expect(attempt).rejects.toMatchObject({ code: "invalid_option" });
		}
		// A bare "*" is a denied host's own form (deny all), as in sandbox-runtime's schema.
		const denyAll = await sandboxed(here.place, { network: { allowedDomains: ["example.com"], deniedDomains: ["*"] } });
		workspaces.push(denyAll);
		expect(denyAll.sandbox.active).toBe(true);
		expect(readdirSync(here.place.temp)).toHaveLength(2);
	});
});
