import { readFileSync } from "node:fs";
import type { AgentMessage } from "@gantry/agent";
import { CliError } from "../errors.js";

/** One line of a transcript that the export draws, in file order. */
export type TranscriptItem =
	/** `rewound`: a later rewind dropped it from the conversation (the page still shows it, marked). */
	| { type: "message"; message: AgentMessage; rewound?: boolean }
	| { type: "tools"; added: string[]; removed: string[] }
	/** `/model`: the requests after it went to this model. */
	| { type: "model"; provider: string; id: string }
	| {
			type: "rewind";
			/** The prompts whose turns the rewind dropped (none for a code-only rewind). */
			droppedPrompts: string[];
			code: boolean;
			conversation: boolean;
			restored: string[];
			removed: string[];
			conflicts: string[];
	  };

/** A transcript as the export reads it. */
export interface ExportedTranscript {
	header: { id?: string; cwd?: string; createdAt?: string };
	items: TranscriptItem[];
	/** Lines that could not be read (a torn last line after a crash). */
	skippedLines: number;
}

/** Reads a session's JSONL transcript; throws `session_failed` when it is missing or not a transcript. */
export function readTranscript(path: string): ExportedTranscript {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		throw new CliError("session_failed", `Cannot read ${path}: ${(error as Error).message}`, { cause: error });
	}
	const items: TranscriptItem[] = [];
	let header: ExportedTranscript["header"] | undefined;
	let skippedLines = 0;
	// The messages the conversation still holds, in order: a rewind cuts it back to its `messageIndex`.
	const live: { rewound?: boolean }[] = [];
	for (const line of text.split("\n")) {
		if (line.trim() === "") continue;
		let entry: { type?: string; [key: string]: unknown };
		try {
			entry = JSON.parse(line) as typeof entry;
		} catch {
			skippedLines++;
			continue;
		}
		if (entry.type === "session") header ??= entry as ExportedTranscript["header"];
		else if (entry.type === "message" && entry.message) {
			const item: TranscriptItem = { type: "message", message: entry.message as AgentMessage };
			items.push(item);
			live.push(item);
		} else if (entry.type === "checkpoint" || entry.type === "compaction" || entry.type === "trim") {
			// Checkpoints and compaction steps change what later requests send, not what was said: the page shows every message.
		} else if (entry.type === "rewind") {
			const index = typeof entry.messageIndex === "number" ? entry.messageIndex : live.length;
			if (entry.conversation === true) for (const dropped of live.splice(index)) dropped.rewound = true;
			const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
			items.push({
				type: "rewind",
				droppedPrompts: list(entry.droppedPrompts),
				code: entry.code === true,
				conversation: entry.conversation === true,
				restored: list(entry.restored),
				removed: list(entry.removed),
				conflicts: list(entry.conflicts),
			});
		} else if (entry.type === "model" && typeof entry.provider === "string" && typeof entry.id === "string") {
			items.push({ type: "model", provider: entry.provider, id: entry.id });
		} else if (entry.type === "tools") {
			items.push({ type: "tools", added: (entry.added as string[]) ?? [], removed: (entry.removed as string[]) ?? [] });
		} else skippedLines++;
	}
	if (!header) {
		throw new CliError("session_failed", `${path} is not a Gantry transcript: it has no session header line`);
	}
	return { header, items, skippedLines };
}
