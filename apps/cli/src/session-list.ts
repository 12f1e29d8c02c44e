import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { usageError } from "./errors.js";
import { folderTranscripts } from "./sessions.js";

/** One saved session of a folder, as `gantry sessions` shows it. */
export interface SessionSummary {
	/** The transcript's session id (its header's `id`). */
	id: string;
	/** What `gantry sessions` shows and `--resume` takes: the id's first 8 characters. */
	shortId: string;
	path: string;
	/** When it started (the header's `createdAt`, ISO 8601). */
	createdAt: string;
	/** When it was last written, milliseconds since the epoch. */
	updatedAt: number;
	/** The first prompt's first line (at most 80 characters), or "" before the first prompt. */
	firstPrompt: string;
	/** Prompts sent (user messages). */
	turns: number;
	/** Messages of every kind. */
	messages: number;
	/** US dollars summed over the answers (0 when the model has no prices). */
	cost: number;
}

const SHORT_ID = 8;

/**
 * The sessions of the folder with session key `key` (see `sessionKey`), newest first. A file that is not a
 * Gantry transcript is left out; torn lines are skipped.
 */
export function listSessions(key: string, home?: string): SessionSummary[] {
	return folderTranscripts(key, home)
		.flatMap((entry) => {
			const summary = summarizeTranscript(entry.path, entry.time);
			return summary === undefined ? [] : [summary];
		})
		.sort((a, b) => b.updatedAt - a.updatedAt || (a.path < b.path ? 1 : -1));
}

/** Reads what the list shows of one transcript; undefined when it has no session header. */
export function summarizeTranscript(path: string, updatedAt = statSync(path).mtimeMs): SessionSummary | undefined {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
	let header: { id?: unknown; createdAt?: unknown } | undefined;
	let firstPrompt: string | undefined;
	let turns = 0;
	let messages = 0;
	let cost = 0;
	for (const line of text.split("\n")) {
		if (line.trim() === "") continue;
		let entry: { type?: unknown; id?: unknown; createdAt?: unknown; message?: Record<string, unknown> };
		try {
			entry = JSON.parse(line);
		} catch {
			continue;
		}
		if (header === undefined) {
			if (entry.type !== "session") return undefined;
			header = entry;
			continue;
		}
		if (entry.type !== "message" || typeof entry.message !== "object" || entry.message === null) continue;
		messages++;
		const message = entry.message;
		if (message.role === "user") {
			turns++;
			firstPrompt ??= promptLine(message.content);
		} else if (message.role === "assistant") {
			const total = (message.usage as { cost?: { total?: unknown } } | undefined)?.cost?.total;
			if (typeof total === "number" && Number.isFinite(total)) cost += total;
		}
	}
	if (header === undefined || typeof header.id !== "string") return undefined;
	return {
		id: header.id,
		shortId: header.id.slice(0, SHORT_ID),
		path,
		createdAt: typeof header.createdAt === "string" ? header.createdAt : new Date(updatedAt).toISOString(),
		updatedAt,
		firstPrompt: firstPrompt ?? "",
		turns,
		messages,
		cost,
	};
}

/** The first line of a prompt's text, shortened to 80 characters. */
function promptLine(content: unknown): string {
	const text =
		typeof content === "string"
			? content
			: Array.isArray(content)
				? content
						.map((block: { type?: unknown; text?: unknown }) => (block?.type === "text" ? String(block.text) : ""))
						.join(" ")
				: "";
	const line = (text.trim().split("\n")[0] ?? "").trim();
	return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * The transcript `--resume ID|PATH` names: a path (it has a `/` or ends in `.jsonl`; relative to the shell's
 * folder), or the id of one of this folder's sessions — the 8 characters `gantry sessions` shows, the full
 * id, or any prefix that only one of them has. Throws a usage error naming what to do when nothing, or
 * more than one session, matches.
 */
export function findSession(reference: string, key: string, home?: string): string {
	if (reference.includes("/") || reference.endsWith(".jsonl")) {
		const path = resolve(reference);
		if (!existsSync(path)) throw usageError(`--resume ${reference}: no such transcript file`);
		return path;
	}
	const wanted = reference.toLowerCase();
	const sessions = listSessions(key, home);
	const matches = sessions.filter((session) => session.id.toLowerCase().startsWith(wanted));
	const [only] = matches;
	if (only !== undefined && matches.length === 1) return only.path;
	if (matches.length > 1) {
		const ids = matches.slice(0, 5).map((session) => session.id.slice(0, Math.max(SHORT_ID, wanted.length + 2)));
		throw usageError(
			`--resume ${reference}: ${matches.length} sessions of this folder start with it (${ids.join(", ")}${matches.length > 5 ? ", …" : ""}); give more of the id`,
		);
	}
	throw usageError(
		sessions.length === 0
			? `--resume ${reference}: this folder has no saved sessions yet`
			: `--resume ${reference}: no session of this folder has that id (gantry sessions lists them; for another folder's, pass its transcript path)`,
	);
}

/** `2026-12-01 10:00` in the local time zone. */
export function localTime(milliseconds: number): string {
	const date = new Date(milliseconds);
	const two = (value: number) => String(value).padStart(2, "0");
	return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
