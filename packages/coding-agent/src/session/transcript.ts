import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentMessage } from "@gantry/agent";

export const TRANSCRIPT_VERSION = 1;

/** The first line of a transcript file. */
export interface TranscriptHeader {
	type: "session";
	version: number;
	id: string;
	cwd: string;
	createdAt: string;
}
/** One message of the conversation, in order. */
export interface TranscriptMessageEntry {
	type: "message";
	message: AgentMessage;
	/** On a tool result: the arguments the tool ran with (after validation and the `tool_call` handlers). */
	executedArguments?: unknown;
	/** On a tool result whose executed arguments differ: the arguments the model sent. */
	modelArguments?: unknown;
}
/** A change of the active tool set. */
export interface TranscriptToolsEntry {
	type: "tools";
	added: string[];
	removed: string[];
}
export type TranscriptEntry = TranscriptHeader | TranscriptMessageEntry | TranscriptToolsEntry;

export interface LoadedTranscript {
	header: TranscriptHeader;
	messages: AgentMessage[];
	/** The active tool names after replaying every `tools` entry, or undefined when none was written. */
	activeToolNames: string[] | undefined;
	/** Lines that could not be read (a torn last line is expected after a crash). */
	skippedLines: number;
}

/**
 * An append-only JSONL transcript: a header, one entry per message, and one per change of the active
 * tool set. Every entry is written with its own append, so a crash can tear at most the last line,
 * which loading ignores.
 */
export class Transcript {
	readonly path: string;
	readonly header: TranscriptHeader;

	private constructor(path: string, header: TranscriptHeader) {
		this.path = path;
		this.header = header;
	}

	/** Opens `path`: loads it when it exists (resume), else creates it with a new header. */
	static open(path: string, cwd: string): { transcript: Transcript; loaded?: LoadedTranscript } {
		if (existsSync(path)) {
			const loaded = loadTranscript(path);
			return { transcript: new Transcript(path, loaded.header), loaded };
		}
		mkdirSync(dirname(path), { recursive: true });
		const header: TranscriptHeader = {
			type: "session",
			version: TRANSCRIPT_VERSION,
			id: randomUUID(),
			cwd,
			createdAt: new Date().toISOString(),
		};
		const transcript = new Transcript(path, header);
		transcript.append(header);
		return { transcript };
	}

	append(entry: TranscriptEntry): void {
		appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
	}

	/** Appends a message; for a tool result that ran, with the arguments it ran with (see the entry type). */
	appendMessage(message: AgentMessage, execution?: { executedArguments: unknown; modelArguments: unknown }): void {
		const entry: TranscriptMessageEntry = { type: "message", message };
		if (execution !== undefined) {
			entry.executedArguments = execution.executedArguments;
			if (JSON.stringify(execution.executedArguments) !== JSON.stringify(execution.modelArguments)) {
				entry.modelArguments = execution.modelArguments;
			}
		}
		this.append(entry);
	}

	appendToolChange(previous: readonly string[], next: readonly string[]): void {
		const before = new Set(previous);
		const after = new Set(next);
		const added = next.filter((name) => !before.has(name));
		const removed = previous.filter((name) => !after.has(name));
		if (added.length > 0 || removed.length > 0) this.append({ type: "tools", added, removed });
	}
}

/** Reads a transcript; a torn or unreadable line is skipped, nothing before it is lost. */
export function loadTranscript(path: string): LoadedTranscript {
	const lines = readFileSync(path, "utf8").split("\n");
	let header: TranscriptHeader | undefined;
	const messages: AgentMessage[] = [];
	let active: string[] | undefined;
	let skippedLines = 0;
	for (const line of lines) {
		if (line.trim() === "") continue;
		let entry: TranscriptEntry;
		try {
			entry = JSON.parse(line) as TranscriptEntry;
		} catch {
			skippedLines++;
			continue;
		}
		if (entry.type === "session") header ??= entry;
		else if (entry.type === "message") messages.push(entry.message);
		else if (entry.type === "tools") {
			const removed = new Set(entry.removed);
			active = [...(active ?? []).filter((name) => !removed.has(name)), ...entry.added];
		}
	}
	if (!header) {
		throw new Error(`${path} is not a Gantry transcript: its first line is not a session header`);
	}
	return { header, messages, activeToolNames: active, skippedLines };
}
