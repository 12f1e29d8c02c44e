import { readdirSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace, type SandboxedWorkspace, type SandboxSettings } from "../src/index.js";
import { localWorkspace, placePerTest } from "./helpers.js";

// In a file of its own: sandbox-runtime's manager is one per process and keeps the socat it was first given.

const here = placePerTest();
const { workspaces } = here;

/** A sandboxed workspace whose `socat` is a program that exits at once: sandbox-runtime's bridges cannot start. */
async function withBrokenSocat(settings: SandboxSettings): Promise<SandboxedWorkspace> {
	const fake = join(here.place.root, "not-socat");
	await writeFile(fake, "#!/bin/sh\nexit 1\n");
	await chmod(fake, 0o755);
	const local = localWorkspace(here.place);
	const processes = local.processes;
	const workspace = await createSandboxedWorkspace(
		{
			...local,
			processes: {
				...processes,
				which: (name: string, lookup?: Parameters<typeof processes.which>[1]) =>
					name === "socat" ? Promise.resolve(fake) : processes.which(name, lookup),
			},
		},
		{ enabled: true, ...settings },
	);
	workspaces.push(workspace);
	return workspace;
}

describe("an allow list's network that cannot start after set-up", () => {
	it("refuses commands with the reason when it cannot start, even where failIfUnavailable is off", async () => {
		const workspace = await withBrokenSocat({
			network: { allowedDomains: ["example.com"] },
			failIfUnavailable: false,
		});
		const marker = join(here.place.project, "ran");
		await expect(
			workspace.processes.spawn("bash", ["-c", `touch ${marker}`], { cwd: here.place.project }),
		).rejects.toThrow(/could not start the sandbox's network: .*bridge/);
		expect(readdirSync(here.place.project)).toEqual([]);
		expect(workspace.sandbox.active).toBe(false);
		expect(workspace.sandbox.reason).toMatch(/could not start the sandbox's network/);
		// Later commands, and those a program starts itself, are refused too.
		await expect(workspace.processes.spawn("true", [], { cwd: here.place.project })).rejects.toThrow(
			/refused rather than run without it/,
		);
		await expect(workspace.sandboxCommand("true", [])).rejects.toThrow(/not active/);
	});
});
