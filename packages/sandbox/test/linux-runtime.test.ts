import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FilesystemPathEntry } from "@anthropic-ai/sandbox-runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LinuxFilesystem, loadLinuxModules, wrapWithoutNetwork } from "../src/linux-runtime.js";
import { splitInvocation } from "../src/shell-words.js";
import { makePlace, type Place, removePlace } from "./helpers.js";

// A workspace with no host allowed builds its profile from sandbox-runtime's Linux modules alone, preparing
// the lists the way the manager does (see linux-runtime.ts). This holds the two side by side, so that an
// upgrade of sandbox-runtime that changes the manager's preparation is caught here, not in a sandbox.

let place: Place;

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	const { SandboxManager } = await import("@anthropic-ai/sandbox-runtime");
	await SandboxManager.reset();
	await removePlace(place);
});

/** A project with what each kind of entry resolves: a folder, globs that match, a link, a missing name. */
async function lists(project: string): Promise<LinuxFilesystem> {
	await mkdir(join(project, "secrets"));
	await mkdir(join(project, "build"));
	await writeFile(join(project, "secrets", "a.key"), "x");
	await writeFile(join(project, "secrets", "open.txt"), "x");
	await writeFile(join(project, "top.key"), "x");
	await writeFile(join(project, ".env"), "x");
	await symlink(join(project, "secrets"), join(project, "linked"));
	const literal = (path: string): FilesystemPathEntry => ({ path, literal: true });
	return {
		allowWrite: [project, join(project, "build", "**"), join(place.outside, "*.log")],
		denyWrite: [join(project, ".mcp.json"), join(project, "*.lock"), literal(join(project, "odd*name"))],
		denyRead: [join(project, "secrets"), join(project, "**", "*.key"), join(project, ".env"), join(project, "linked")],
		allowRead: [join(project, "secrets", "open.txt"), literal(join(project, "odd[1]"))],
	};
}

const BASH = "/bin/bash";
const COMMAND_ID = "guard-of-the-linux-modules";

async function bothInvocations(filesystem: LinuxFilesystem, allowAllUnixSockets: boolean): Promise<string[][]> {
	const [bwrapPath, socatPath] = ["bwrap", "socat"];
	const alone = await wrapWithoutNetwork(await loadLinuxModules(), {
		command: "true",
		bashPath: BASH,
		bwrapPath,
		socatPath,
		filesystem,
		allowAllUnixSockets,
		commandId: COMMAND_ID,
	});
	// The manager as a workspace with an allow list uses it, with no network started and no host listed.
	const { SandboxManager } = await import("@anthropic-ai/sandbox-runtime");
	SandboxManager.updateConfig({
		network: { allowedDomains: [], deniedDomains: [], allowAllUnixSockets },
		filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
		bwrapPath,
		socatPath,
	});
	const managed = await SandboxManager.wrapWithSandbox("true", BASH, { filesystem }, undefined, {
		commandId: COMMAND_ID,
	});
	return Promise.all([alone, managed].map((invocation) => splitInvocation(BASH, invocation)));
}

describe("a profile built with sandbox-runtime's Linux modules alone", () => {
	it.each([
		["with bubblewrap's seccomp filter (no helper)", true],
		["with sandbox-runtime's seccomp helper", false],
	])("has the bubblewrap arguments of the manager's wrap, %s", async (_name, allowAllUnixSockets) => {
		const [alone, managed] = await bothInvocations(await lists(place.project), allowAllUnixSockets);
		// The manager unshares the network for an empty allow list; Gantry adds that itself (profile.ts).
		const withoutNetwork = (managed ?? []).filter((word) => word !== "--unshare-net");
		expect(alone).toEqual(withoutNetwork);
		// The lists did reach bubblewrap: a hidden folder, a glob's match, a protected file.
		expect(alone).toContain(join(place.project, "secrets"));
		expect(alone).toContain(join(place.project, "top.key"));
		expect(alone).toContain(join(place.project, ".mcp.json"));
	});
});
