import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace } from "../src/index.js";
import { bash, localWorkspace, placePerTest, sandboxed, withoutProgram } from "./helpers.js";

/** Whether node-forge (which only sandbox-runtime's proxy and certificate code import) is loaded in this process. */
function nodeForgeLoaded(): boolean {
	return Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("node-forge"));
}

describe("the sandbox's set-up", () => {
	const here = placePerTest();
	const { workspaces } = here;

	it("builds a workspace with no host allowed without sandbox-runtime's proxy code, holding it to the same lists", async () => {
		await mkdir(join(here.place.project, "secrets"));
		await writeFile(join(here.place.project, "secrets", "a.key"), "hidden");
		await writeFile(join(here.place.project, "notes.key"), "hidden too");
		await writeFile(join(here.place.project, "secrets", "open.txt"), "readable");
		const workspace = await sandboxed(here.place, {
			filesystem: { denyRead: ["./secrets", "**/*.key"], allowRead: ["./secrets/open.txt"] },
		});
		workspaces.push(workspace);
		expect(workspace.sandbox.active).toBe(true);
		const run = await bash(
			workspace,
			"cat notes.key secrets/a.key 2>/dev/null; cat secrets/open.txt; echo x > .mcp.json; echo x > free.txt && echo written",
		);
		expect(run.text).not.toContain("hidden");
		expect(run.text).toContain("readable");
		expect(run.text).toContain("written");
		const protectedFile = await bash(workspace, "echo x > .mcp.json");
		expect(protectedFile.exitCode).not.toBe(0);
		const socket = await bash(workspace, "python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1");
		expect(socket.text).toMatch(/Permission|not permitted/i);
		expect(nodeForgeLoaded()).toBe(false);

		// A workspace that allows a host loads the manager, and with it the proxy's code (after set-up: a
		// command waits for it).
		const networked = await sandboxed(here.place, { network: { allowedDomains: ["example.com"] } });
		workspaces.push(networked);
		expect(networked.sandbox.active).toBe(true);
		await bash(networked, "true");
		expect(nodeForgeLoaded()).toBe(true);
	});

	it("is not active, with the reason, where ripgrep is missing (sandbox-runtime runs it to find what it protects)", async () => {
		const withoutRipgrep = withoutProgram(localWorkspace(here.place), "rg");
		const workspace = await createSandboxedWorkspace(withoutRipgrep, { enabled: true });
		workspaces.push(workspace);
		expect(workspace.sandbox.active).toBe(false);
		expect(workspace.sandbox.reason).toMatch(/ripgrep \(rg\) is not on PATH/);
		await expect(workspace.processes.spawn("true", [], { cwd: here.place.project })).rejects.toThrow(
			/failIfUnavailable is on/,
		);
	});
});
