import { readdirSync, readlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace, type SandboxedWorkspace } from "../src/index.js";
import {
	bash,
	childPrograms,
	curlThroughProxy,
	localWorkspace,
	placePerTest,
	sandboxed,
	withoutProgram,
} from "./helpers.js";

const here = placePerTest();
const { workspaces } = here;
async function open(settings: Parameters<typeof sandboxed>[1] = {}): Promise<SandboxedWorkspace> {
	const workspace = await sandboxed(here.place, settings);
	workspaces.push(workspace);
	expect(workspace.sandbox.active).toBe(true);
	return workspace;
}

/** What a command sees running in its own sandbox, one command line a line. */
const listProcesses = `for p in /proc/[0-9]*; do tr '\\0' ' ' < "$p/cmdline" 2>/dev/null; echo; done`;

describe("the network plumbing of sandboxed commands", () => {
	it("starts sandbox-runtime's proxy only for a workspace that allows a host, and stops it after the last one closed", async () => {
		await open();
		expect(childPrograms()).not.toContain("socat");
		const networked = await open({ network: { allowedDomains: ["example.com"] } });
		// The network starts after set-up; a command waits for it.
		await bash(networked, "true");
		expect(childPrograms()).toContain("socat");
		await networked.close();
		expect(childPrograms()).not.toContain("socat");
		expect(childPrograms()).not.toContain("bwrap");
	});

	it("runs the relays of a workspace with an allow list once: its commands share one network and start no relay", async () => {
		const port = await here.answering("answer");
		const workspace = await open({ network: { allowedDomains: [`127.0.0.1:${port}`] } });
		const first = await bash(workspace, `readlink /proc/self/ns/net; ${listProcesses}`);
		const second = await bash(workspace, "readlink /proc/self/ns/net");
		expect(first.text.split("\n")[0]).toMatch(/^net:\[\d+\]$/);
		expect(second.text).toBe(first.text.split("\n")[0]);
		expect(first.text).not.toMatch(/socat TCP\d?-LISTEN/);
		expect(first.text).not.toContain("apply-seccomp");
		const reached = await bash(
			workspace,
			`env -u NO_PROXY -u no_proxy curl -fsS --max-time 20 http://127.0.0.1:${port}/`,
		);
		expect(reached.text).toBe("answer");
	});

	it("falls back to sandbox-runtime's relays in every command where there is no nsenter", async () => {
		const port = await here.answering("answer");
		const withoutNsenter = withoutProgram(localWorkspace(here.place), "nsenter");
		const workspace = await createSandboxedWorkspace(withoutNsenter, {
			enabled: true,
			network: { allowedDomains: [`127.0.0.1:${port}`] },
		});
		workspaces.push(workspace);
		expect(workspace.sandbox.active).toBe(true);
		const curl = curlThroughProxy(port);
		const first = await bash(workspace, `readlink /proc/self/ns/net; ${curl}`);
		const second = await bash(workspace, "readlink /proc/self/ns/net");
		expect(first.text).toMatch(/answer$/);
		expect(first.text.split("\n")[0]).not.toBe(second.text);
		const socket = await bash(workspace, "python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1");
		expect(socket.text).toMatch(/Permission|not permitted/i);
	});

	it("holds a command with an allow list to the proxy and to the write denies", async () => {
		const port = await here.answering("answer");
		const workspace = await open({ network: { allowedDomains: [`127.0.0.1:${port}`] } });
		const direct = await bash(workspace, `curl -fsS --noproxy '*' --max-time 10 http://127.0.0.1:${port}/`);
		expect(direct.exitCode).not.toBe(0);
		expect(direct.text).not.toContain("answer");
		const written = await bash(workspace, `echo x > .mcp.json; echo x > ${here.place.outside}/file; cat .mcp.json`);
		expect(written.exitCode).not.toBe(0);
		expect(written.text).not.toContain("x\n");
		expect(readdirSync(here.place.outside)).toEqual([]);
	});

	it("keeps a command with an allow list from making a user namespace (which could undo its write denies)", async () => {
		const workspace = await open({ network: { allowedDomains: ["example.com"] } });
		const result = await bash(workspace, "unshare --user true && echo made");
		expect(result.text).not.toContain("made");
	});

	it("gives a workspace's network to its own commands only", async () => {
		const one = await open({ network: { allowedDomains: ["example.com"] } });
		const other = await open({ network: { allowedDomains: ["example.com"] } });
		const [a, b] = await Promise.all([
			bash(one, "readlink /proc/self/ns/net"),
			bash(other, "readlink /proc/self/ns/net"),
		]);
		// A namespace's number is unique only while it lives: the command with no host allowed has a network of its
		// own that ends with it, so it runs while both workspaces' networks live (its number could be given to one
		// of them later).
		const none = await bash(await open(), "readlink /proc/self/ns/net");
		expect(new Set([a.text, b.text, none.text, readlinkSync("/proc/self/ns/net")]).size).toBe(4);
	});
});
