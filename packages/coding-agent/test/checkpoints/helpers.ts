import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalWorkspace, type Workspace } from "@gantry/tools";
import { afterEach, beforeEach } from "vitest";

/** A real project folder and home folder under one temp root, made before each test and removed after it. */
export interface Place {
	root: string;
	project: string;
	home: string;
}

/** Makes a fresh place before each test of the file; the returned object's fields change with each test. */
export function usePlace(prefix: string): Place {
	const place: Place = { root: "", project: "", home: "" };
	beforeEach(async () => {
		place.root = await mkdtemp(join(tmpdir(), prefix));
		place.project = join(place.root, "project");
		place.home = join(place.root, "home");
		await mkdir(place.project);
		await mkdir(place.home);
	});
	afterEach(() => rm(place.root, { recursive: true, force: true }));
	return place;
}

/** Runs the project's own git. No optional locks: the test's own `git status` must not refresh the index it compares. */
export function gitIn(project: string, ...args: string[]): string {
	return execFileSync("git", ["-C", project, ...args], {
		encoding: "utf8",
		env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
	});
}

/** A local workspace whose git processes wait until `release()`; `gitStarted` resolves when the first one asks. */
export function gatedGitWorkspace(cwd: string) {
	const inner = createLocalWorkspace(cwd);
	let release = () => {};
	const gate = new Promise<void>((resolve) => {
		release = resolve;
	});
	let started = () => {};
	const gitStarted = new Promise<void>((resolve) => {
		started = resolve;
	});
	const workspace: Workspace = {
		...inner,
		processes: {
			...inner.processes,
			spawn: async (file, args, options) => {
				if (file === "git") {
					started();
					await gate;
				}
				return inner.processes.spawn(file, args, options);
			},
		},
	};
	return { workspace, release, gitStarted };
}
