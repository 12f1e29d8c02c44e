import { readFileSync } from "node:fs";
import type { AgentMessage } from "@gantry/agent";
import { CliError } from "../errors.js";

/** One line of a transcript that the export draws, in file order. */
export type TranscriptItem =
	| { type: "message"; message: AgentMessage }
	| { type: "tools"; added: string[]; removed: string[] };

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
		else if (entry.type === "message" && entry.message)
			items.push({ type: "message", message: entry.message as AgentMessage });
		else if (entry.type === "tools") {
			items.push({ type: "tools", added: (entry.added as string[]) ?? [], removed: (entry.removed as string[]) ?? [] });
		} else skippedLines++;
	}
	if (!header) {
		throw new CliError("session_failed", `${path} is not a Gantry transcript: it has no session header line`);
	}
	return { header, items, skippedLines };
}
