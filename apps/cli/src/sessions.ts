import { createHash, randomBytes } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** `~/.gantry/sessions`: one folder per working folder, one JSONL transcript per session. */
export function sessionsRoot(home: string = homedir()): string {
	return join(home, ".gantry", "sessions");
}

/** A working folder's path with separators as dashes, e.g. `home-ada-shop` (the readable part of its key). */
export function cwdSlug(cwd: string): string {
	const slug = resolve(cwd)
		.replace(/^[A-Za-z]:/, (drive) => drive[0])
		.replace(/[\\/:]+/g, "-")
		.replace(/^-+|-+$/g, "");
	return slug === "" ? "root" : slug;
}

/** Characters of the readable part of a session folder's name. */
const SLUG_CHARS = 60;

/**
 * The session folder's name for a working folder: a readable slug of its path and a short hash of the
 * full path, e.g. `tmp-ux-work-1a2b3c4d`, so `/tmp/ux/work` and `/tmp/ux-work` never share a history.
 */
export function sessionKey(cwd: string): string {
	const full = resolve(cwd);
	const hash = createHash("sha256").update(full).digest("hex").slice(0, 8);
	const slug = cwdSlug(full);
	return `${slug.length > SLUG_CHARS ? slug.slice(slug.length - SLUG_CHARS) : slug}-${hash}`;
}

/** The folder holding the sessions of `cwd`. */
export function sessionFolder(cwd: string, home?: string): string {
	return join(sessionsRoot(home), sessionKey(cwd));
}

/** A new transcript path for `cwd`, named by its start time so names sort by age. */
export function newSessionFile(cwd: string, home?: string, now = new Date()): string {
	const stamp = now.toISOString().replace(/[:.]/g, "-");
	return join(sessionFolder(cwd, home), `${stamp}_${randomBytes(3).toString("hex")}.jsonl`);
}

/** The working folder a transcript's header names (its first line), or undefined when unreadable. */
function transcriptCwd(path: string): string | undefined {
	let descriptor: number | undefined;
	try {
		descriptor = openSync(path, "r");
		const buffer = Buffer.alloc(4096);
		const read = readSync(descriptor, buffer, 0, buffer.length, 0);
		const header = JSON.parse(buffer.subarray(0, read).toString("utf8").split("\n")[0]) as { cwd?: unknown };
		return typeof header.cwd === "string" ? header.cwd : undefined;
	} catch {
		return undefined;
	} finally {
		if (descriptor !== undefined) closeSync(descriptor);
	}
}

/** The transcripts in `folder` with their modification times (none when it does not exist). */
function transcriptsIn(folder: string): { path: string; time: number }[] {
	let names: string[];
	try {
		names = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
	} catch {
		return [];
	}
	return names.flatMap((name) => {
		const path = join(folder, name);
		const time = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
		return time === undefined ? [] : [{ path, time }];
	});
}

/**
 * The most recently written transcript of `cwd`, or undefined when it has none. Sessions written
 * before folders were keyed by a hash (folder named by the slug alone) count when their header names
 * exactly this folder.
 */
export function latestSessionFile(cwd: string, home?: string): string | undefined {
	const full = resolve(cwd);
	const legacy = transcriptsIn(join(sessionsRoot(home), cwdSlug(full))).filter(
		(entry) => transcriptCwd(entry.path) === full,
	);
	let latest: { path: string; time: number } | undefined;
	for (const entry of [...transcriptsIn(sessionFolder(full, home)), ...legacy]) {
		if (!latest || entry.time > latest.time || (entry.time === latest.time && entry.path > latest.path)) latest = entry;
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
 * `cwd`, else a new one under `~/.gantry/sessions/<session-key>/`.
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
