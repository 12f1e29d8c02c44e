import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxedWorkspace } from "../src/index.js";
import { bash, makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

/**
 * What sandbox-runtime leaves to the program that embeds it, each covered by Gantry (the network one is in
 * network.test.ts: with no allow list the network is closed, where sandbox-runtime would leave it open).
 */
let place: Place;
let workspace: SandboxedWorkspace | undefined;

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	delete process.env.GANTRY_PLANTED_SECRET_TOKEN;
	await workspace?.close();
	workspace = undefined;
	await removePlace(place);
});

describe("what sandbox-runtime leaves to its embedder", () => {
	it("protects the workspace's own folder, not this process's cwd, and .gantry with it", async () => {
		expect(process.cwd()).not.toBe(place.project);
		const before = readdirSync(process.cwd()).sort();
		workspace = await sandboxed(place);
		const result = await bash(
			workspace,
			"mkdir -p .gantry; echo '{}' > .gantry/settings.json; echo '{}' > .mcp.json; ls -A",
		);
		expect(existsSync(join(place.project, ".gantry", "settings.json"))).toBe(false);
		expect(existsSync(join(place.project, ".mcp.json"))).toBe(false);
		expect(result.exitCode).toBe(0);
		// Nothing was protected (nor left) in the process's own folder.
		expect(readdirSync(process.cwd()).sort()).toEqual(before);
	});

	it("gives commands a TMPDIR that exists and may be written, with no host allowed too", async () => {
		workspace = await sandboxed(place);
		const result = await bash(workspace, 'echo "$TMPDIR" && echo data > "$TMPDIR/f" && cat "$TMPDIR/f"');
		expect(result.text).toBe(`${workspace.tempDir}\ndata`);
	});

	it("passes the environment without secrets, and without the variable that carried the command", async () => {
		process.env.GANTRY_PLANTED_SECRET_TOKEN = "planted-token-value";
		workspace = await sandboxed(place);
		const result = await bash(workspace, "env");
		expect(result.text).not.toContain("planted-token-value");
		expect(result.text).not.toContain("GANTRY_SANDBOX_EXEC");
		expect(result.text).toContain(`PATH=${process.env.PATH}`);
	});

	it("removes the placeholder files of protected names once the last of several running commands ended", async () => {
		workspace = await sandboxed(place);
		const names = [".mcp.json", ".bashrc", ".profile", ".vscode", ".idea", ".gitmodules"];
		const slow = bash(workspace, "sleep 1; echo slow");
		const fast = await bash(workspace, `ls -A`);
		// While a sandbox runs, its mount points are there (removing one would lift its protection).
		for (const name of names) expect(fast.text, name).toContain(name);
		expect(existsSync(join(place.project, ".mcp.json"))).toBe(true);
		expect((await slow).text).toBe("slow");
		for (const name of names) expect(existsSync(join(place.project, name)), name).toBe(false);
		expect(readdirSync(place.project)).toEqual([]);
	});
});
