import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxedWorkspace, SandboxSettings } from "../src/index.js";
import { bash, makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

let place: Place;
const workspaces: SandboxedWorkspace[] = [];

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	await Promise.all(workspaces.splice(0).map((workspace) => workspace.close()));
	await removePlace(place);
});

describe("a sandbox's profile", () => {
	it.each<[string, SandboxSettings]>([
		["with no host allowed", {}],
		["with an allow list", { network: { allowedDomains: ["example.com"] } }],
	])("is built again when a path it binds is gone, %s", async (_name, settings) => {
		// bubblewrap refuses to start when a path it is to bind is missing: a folder of allowWrite removed from
		// outside, or a placeholder another sandbox made while the profile was built and removed since.
		const dist = join(place.project, "dist");
		await mkdir(dist);
		const workspace = await sandboxed(place, { ...settings, filesystem: { allowWrite: ["./dist"] } });
		workspaces.push(workspace);
		expect((await bash(workspace, "echo before")).text).toBe("before");
		await rm(dist, { recursive: true });
		const after = await bash(workspace, "echo after");
		expect(after.text).toBe("after");
		expect(after.exitCode).toBe(0);
	});
});
