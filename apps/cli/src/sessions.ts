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
		.replace(/^[A-Za-z]:/, (drive) => drive.charAt(0))
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

/** A transcript's header (its first line), or undefined when unreadable. */
function transcriptHeader(path: string): { cwd?: unknown; id?: unknown } | undefined {
	let descriptor: number | undefined;
	try {
		descriptor = openSync(path, "r");
		const buffer = Buffer.alloc(4096);
		const read = readSync(descriptor, buffer, 0, buffer.length, 0);
		const header: unknown = JSON.parse(buffer.subarray(0, read).toString("utf8").split("\n")[0] ?? "");
		return typeof header === "object" && header !== null ? header : undefined;
	} catch {
		return undefined;
	} finally {
		if (descriptor !== undefined) closeSync(descriptor);
	}
}

/** The working folder a transcript's header names, or undefined when unreadable. */
function transcriptCwd(path: string): string | undefined {
	const cwd = transcriptHeader(path)?.cwd;
	return typeof cwd === "string" ? cwd : undefined;
}

/**
 * The line print and JSON mode end with on stderr: where the transcript is and the command that goes on
 * with it (`--resume` and the id `gantry sessions` shows; the path for a `--session` file).
 */
export function sessionSavedLine(choice: SessionFileChoice): string {
	const id = transcriptHeader(choice.path)?.id;
	const resume = choice.origin !== "given" && typeof id === "string" ? id.slice(0, 8) : shellWord(choice.path);
	return `Session: ${choice.path} (go on with: gantry --resume ${resume})`;
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain path characters. */
function shellWord(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
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
 * Every transcript of `cwd` with its modification time, in no order. Sessions written before folders were
 * keyed by a hash (folder named by the slug alone) count when their header names exactly this folder.
 */
export function folderTranscripts(cwd: string, home?: string): { path: string; time: number }[] {
	const full = resolve(cwd);
	const legacy = transcriptsIn(join(sessionsRoot(home), cwdSlug(full))).filter(
		(entry) => transcriptCwd(entry.path) === full,
	);
	return [...transcriptsIn(sessionFolder(full, home)), ...legacy];
}

/** The most recently written transcript of `cwd` (see `folderTranscripts`), or undefined when it has none. */
export function latestSessionFile(cwd: string, home?: string): string | undefined {
	let latest: { path: string; time: number } | undefined;
	for (const entry of folderTranscripts(cwd, home)) {
		if (!latest || entry.time > latest.time || (entry.time === latest.time && entry.path > latest.path)) latest = entry;
	}
	return latest?.path;
}

/** Which transcript a run uses, and whether it resumes one. */
export interface SessionFileChoice {
	path: string;
	/** How it was chosen, for the banner: `--session`, `--continue`, `--resume` or a new one. */
	origin: "given" | "continued" | "resumed" | "new";
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
