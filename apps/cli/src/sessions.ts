import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** `~/.gantry/sessions`: one folder per working folder, one JSONL transcript per session. */
export function sessionsRoot(home: string = homedir()): string {
	return join(home, ".gantry", "sessions");
}

/** The folder name for a working folder: its path with separators as dashes, e.g. `home-ada-shop`. */
export function cwdSlug(cwd: string): string {
	const slug = resolve(cwd)
		.replace(/^[A-Za-z]:/, (drive) => drive[0])
		.replace(/[\\/:]+/g, "-")
		.replace(/^-+|-+$/g, "");
	return slug === "" ? "root" : slug;
}

/** The folder holding the sessions of `cwd`. */
export function sessionFolder(cwd: string, home?: string): string {
	return join(sessionsRoot(home), cwdSlug(cwd));
}

/** A new transcript path for `cwd`, named by its start time so names sort by age. */
export function newSessionFile(cwd: string, home?: string, now = new Date()): string {
	const stamp = now.toISOString().replace(/[:.]/g, "-");
	return join(sessionFolder(cwd, home), `${stamp}_${randomBytes(3).toString("hex")}.jsonl`);
}

/** The most recently written transcript of `cwd`, or undefined when it has none. */
export function latestSessionFile(cwd: string, home?: string): string | undefined {
	const folder = sessionFolder(cwd, home);
	let names: string[];
	try {
		names = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
	} catch {
		return undefined;
	}
	let latest: { path: string; time: number } | undefined;
	for (const name of names) {
		const path = join(folder, name);
		const time = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
		if (time === undefined) continue;
		if (!latest || time > latest.time || (time === latest.time && path > latest.path)) latest = { path, time };
	}
	return latest?.path;
}

/** Which transcript a run uses, and whether it resumes one. */
export interface SessionFileChoice {
	path: string;
	/** How it was chosen, for the banner. */
	origin: "given" | "continued" | "new";
}

/**
 * `--session <file>` (relative to the shell's folder), else with `--continue` the latest transcript of
 * `cwd`, else a new one under `~/.gantry/sessions/<cwd-slug>/`.
 */
export function chooseSessionFile(
	options: { session?: string; continue: boolean },
	cwd: string,
	home?: string,
): SessionFileChoice {
	if (options.session !== undefined) return { path: resolve(options.session), origin: "given" };
	if (options.continue) {
		const latest = latestSessionFile(cwd, home);
		if (latest !== undefined) return { path: latest, origin: "continued" };
	}
	return { path: newSessionFile(cwd, home), origin: "new" };
}
