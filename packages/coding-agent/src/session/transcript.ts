import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentMessage } from "@gantry/agent";
import type { AssistantMessage, Model } from "@gantry/ai";
import {
	CheckpointHistory,
	type TranscriptCheckpointEntry,
	type TranscriptRewindEntry,
} from "../checkpoints/history.js";
import type { LoadedCompaction, TranscriptCompactionEntry, TranscriptTrimEntry } from "../compaction/types.js";

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
	/**
	 * On a tool result that ran: `"as-called"` when it ran with the arguments of its tool call in the
	 * assistant message before it (they are not written again), `"changed"` when validation or a
	 * `tool_call` handler changed them (`executedArguments` holds what ran).
	 */
	executed?: "as-called" | "changed";
	/** With `executed: "changed"`: the arguments the tool ran with. (Older files wrote it on every result.) */
	executedArguments?: unknown;
	/** Written only by older versions, beside `executedArguments`: the model's arguments when they differed. */
	modelArguments?: unknown;
}
/** A change of the active tool set. */
export interface TranscriptToolsEntry {
	type: "tools";
	added: string[];
	removed: string[];
}
/** A switch of the session's model (`AgentSession.setModel`, the CLI's `/model`): later requests use it. */
export interface TranscriptModelEntry {
	type: "model";
	provider: string;
	/** The model id the requests name. */
	id: string;
	timestamp: number;
}
export type TranscriptEntry =
	| TranscriptHeader
	| TranscriptMessageEntry
	| TranscriptToolsEntry
	| TranscriptModelEntry
	| TranscriptCheckpointEntry
	| TranscriptRewindEntry
	| TranscriptCompactionEntry
	| TranscriptTrimEntry;

/** What a model-issued tool call ran with, as `loadTranscript` rebuilds it. */
export interface TranscriptExecution {
	/** The arguments the tool ran with. */
	executedArguments: unknown;
	/** The arguments the model sent (from the assistant message), undefined when that message is missing. */
	modelArguments: unknown;
}

export interface LoadedTranscript {
	header: TranscriptHeader;
	messages: AgentMessage[];
	/** The active tool names after replaying every `tools` entry, or undefined when none was written. */
	activeToolNames: string[] | undefined;
	/** The tool calls that ran, by tool call id, with the arguments they ran with and the model's. */
	executions: Map<string, TranscriptExecution>;
	/** The prompts and checkpoints recorded, rewinds applied (a rewound conversation is already cut in `messages`). */
	checkpoints: CheckpointHistory;
	/** Lines that could not be read (a torn last line is expected after a crash). */
	skippedLines: number;
	/** The compaction state the `compaction` and `trim` entries leave, or undefined when there are none. */
	compaction?: LoadedCompaction;
	/**
	 * The model the last `model` entry switched to, or undefined when the session never switched: a resumed
	 * session is the caller's to open with it (only the caller knows how to reach that provider).
	 */
	model?: { provider: string; id: string };
}

/**
 * An append-only JSONL transcript: a header, one entry per message, one per change of the active tool set,
 * one per switch of the model, one per prompt's checkpoints and one per rewind (history is never rewritten: the loader replays a rewind,
 * so a resumed session continues from the rewound conversation) and one per compaction step (a summary, or
 * tool results trimmed; the messages stay as they were). Every entry is written with its own append, so a crash can tear at most the last line,
 * which loading ignores.
 */
export class Transcript {
	readonly path: string;
	readonly header: TranscriptHeader;
	/** The JSON of each tool call's arguments as written in its assistant message, until its result is written. */
	readonly #calledArguments = new Map<string, string>();

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

	/**
	 * Appends a message; for a tool result that ran, whether it ran with the arguments its tool call holds
	 * (written once, in the assistant message) or with changed ones (written here).
	 */
	appendMessage(message: AgentMessage, execution?: { executedArguments: unknown; modelArguments: unknown }): void {
		const entry: TranscriptMessageEntry = { type: "message", message };
		if (message.role === "assistant") this.#noteToolCalls(message as AssistantMessage);
		if (message.role === "toolResult") {
			const id = (message as { toolCallId: string }).toolCallId;
			const called = this.#calledArguments.get(id) ?? JSON.stringify(execution?.modelArguments);
			this.#calledArguments.delete(id);
			if (execution !== undefined) {
				if (JSON.stringify(execution.executedArguments) === called) entry.executed = "as-called";
				else {
					entry.executed = "changed";
					entry.executedArguments = execution.executedArguments;
				}
			}
		}
		this.append(entry);
	}

	#noteToolCalls(message: AssistantMessage): void {
		if (!Array.isArray(message.content)) return;
		for (const block of message.content) {
			if (block.type === "toolCall") this.#calledArguments.set(block.id, JSON.stringify(block.arguments));
		}
	}

	/** Records that later requests go to `model` (provider and id: how to reach it is the caller's to know). */
	appendModel(model: Pick<Model, "provider" | "id">): void {
		this.append({ type: "model", provider: model.provider, id: model.id, timestamp: Date.now() });
	}

	appendToolChange(previous: readonly string[], next: readonly string[]): void {
		const before = new Set(previous);
		const after = new Set(next);
		const added = next.filter((name) => !before.has(name));
		const removed = previous.filter((name) => !after.has(name));
		if (added.length > 0 || removed.length > 0) this.append({ type: "tools", added, removed });
	}
}

/** The model a `model` entry switched to, or undefined when the entry is malformed. */
function modelOf(entry: Partial<TranscriptModelEntry>): { provider: string; id: string } | undefined {
	const { provider, id } = entry;
	return typeof provider === "string" && typeof id === "string" && id !== "" ? { provider, id } : undefined;
}

/**
 * The model a transcript's last `model` entry switched to — what `loadTranscript` reports as `model` — read
 * without rebuilding the conversation: only the lines that may be such an entry are parsed (a transcript can
 * be many megabytes). Undefined when the session never switched, or the file cannot be read.
 */
export function readRecordedModel(path: string): { provider: string; id: string } | undefined {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
	let found: { provider: string; id: string } | undefined;
	for (const line of text.split("\n")) {
		if (!line.includes('"type":"model"')) continue;
		try {
			const entry = JSON.parse(line) as Partial<TranscriptModelEntry>;
			if (entry.type === "model") found = modelOf(entry) ?? found;
		} catch {
			// A torn line: loadTranscript skips it too.
		}
	}
	return found;
}

/** Reads a transcript; a torn or unreadable line is skipped, nothing before it is lost. */
export function loadTranscript(path: string): LoadedTranscript {
	const lines = readFileSync(path, "utf8").split("\n");
	let header: TranscriptHeader | undefined;
	const messages: AgentMessage[] = [];
	let active: string[] | undefined;
	const called = new Map<string, unknown>();
	const executions = new Map<string, TranscriptExecution>();
	const checkpoints = new CheckpointHistory();
	let skippedLines = 0;
	let compaction: LoadedCompaction | undefined;
	let model: LoadedTranscript["model"];
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
		else if (entry.type === "message") {
			messages.push(entry.message);
			noteExecution(entry, called, executions);
		} else if (entry.type === "tools") {
			const removed = new Set(entry.removed);
			active = [...(active ?? []).filter((name) => !removed.has(name)), ...entry.added];
		} else if (entry.type === "model") {
			const switched = modelOf(entry);
			if (switched) model = switched;
			else skippedLines++;
		} else if (entry.type === "checkpoint") checkpoints.apply(entry);
		else if (entry.type === "rewind") {
			checkpoints.apply(entry);
			if (entry.conversation && entry.messageIndex < messages.length) {
				messages.length = entry.messageIndex;
				// A summary of messages the rewind took back no longer stands for the conversation.
				if (compaction?.summary && compaction.summary.firstKeptIndex > messages.length) {
					const { summary: _rewound, ...rest } = compaction;
					compaction = rest;
				}
			}
		} else if (entry.type === "compaction" || entry.type === "trim") {
			const next = readCompaction(
				entry,
				compaction ?? { trimmedToolCallIds: [], changedAtMessage: 0 },
				messages.length,
			);
			if (next === undefined) skippedLines++;
			else compaction = next;
		}
	}
	if (!header) {
		throw new Error(`${path} is not a Gantry transcript: its first line is not a session header`);
	}
	return {
		header,
		messages,
		activeToolNames: active,
		executions,
		checkpoints,
		skippedLines,
		...(compaction ? { compaction } : {}),
		...(model ? { model } : {}),
	};
}

/** The compaction state after one more entry, or undefined for an entry of the wrong shape. */
function readCompaction(
	entry: TranscriptCompactionEntry | TranscriptTrimEntry,
	state: LoadedCompaction,
	messageCount: number,
): LoadedCompaction | undefined {
	if (entry.type === "trim") {
		if (!Array.isArray(entry.toolCallIds) || !entry.toolCallIds.every((id) => typeof id === "string")) return undefined;
		return {
			...state,
			trimmedToolCallIds: [...state.trimmedToolCallIds, ...entry.toolCallIds],
			changedAtMessage: messageCount,
		};
	}
	const index = entry.firstKeptIndex;
	if (typeof entry.summary !== "string" || !Number.isInteger(index) || index < 0 || index > messageCount)
		return undefined;
	return { ...state, summary: { text: entry.summary, firstKeptIndex: index }, changedAtMessage: messageCount };
}

/** Rebuilds what a tool result ran with: from its entry when written there, else from its tool call. */
function noteExecution(
	entry: TranscriptMessageEntry,
	called: Map<string, unknown>,
	executions: Map<string, TranscriptExecution>,
): void {
	const message = entry.message as { role?: unknown; content?: unknown; toolCallId?: unknown };
	if (message.role === "assistant" && Array.isArray(message.content)) {
		for (const block of message.content as { type?: unknown; id?: unknown; arguments?: unknown }[]) {
			if (block?.type === "toolCall" && typeof block.id === "string") called.set(block.id, block.arguments);
		}
		return;
	}
	if (message.role !== "toolResult" || typeof message.toolCallId !== "string") return;
	const id = message.toolCallId;
	const modelArguments = called.get(id);
	called.delete(id);
	if (entry.executed === "as-called") executions.set(id, { executedArguments: modelArguments, modelArguments });
	else if (entry.executed === "changed" || entry.executedArguments !== undefined) {
		// Older files wrote `executedArguments` on every result, and `modelArguments` when they differed.
		executions.set(id, {
			executedArguments: entry.executedArguments,
			modelArguments: entry.modelArguments ?? modelArguments,
		});
	}
}
