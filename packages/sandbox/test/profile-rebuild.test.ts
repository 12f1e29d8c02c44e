import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SandboxSettings } from "../src/index.js";
import { bash, placePerTest, sandboxed } from "./helpers.js";

const here = placePerTest();
const { workspaces } = here;

describe("a sandbox's profile", () => {
	it.each<[string, SandboxSettings]>([
		["with no host allowed", {}],
		["with an allow list", { network: { allowedDomains: ["example.com"] } }],
	])("is built again when a path it binds is gone, %s", async (_name, settings) => {
		// bubblewrap refuses to start when a path it is to bind is missing: a folder of allowWrite removed from
		// outside, or a placeholder another sandbox made while the profile was built and removed since.
		const dist = join(here.place.project, "dist");
		await mkdir(dist);
		const workspace = await sandboxed(here.place, { ...settings, filesystem: { allowWrite: ["./dist"] } });
		workspaces.push(workspace);
		expect((await bash(workspace, "echo before")).text).toBe("before");
		await rm(dist, { recursive: true });
		const after = await bash(workspace, "echo after");
		expect(after.text).toBe("after");
		expect(after.exitCode).toBe(0);
	});
});
