/** A stretch of the session's own work: the folder went from checkpoint `from` to checkpoint `to`. */
export interface CheckpointSegment {
	from: string;
	to: string;
	/** The files that differ between the two (relative, with `/`). */
	files: string[];
}

/** A transcript line: one prompt, its checkpoint before and after (absent when checkpoints were off). */
export interface TranscriptCheckpointEntry {
	type: "checkpoint";
	id: string;
	prompt: string;
	/** When the prompt started, milliseconds since the epoch. */
	timestamp: number;
	/** How many messages the conversation held before the prompt. */
	messageIndex: number;
	segment?: CheckpointSegment;
}

/** A transcript line: a rewind to the checkpoint before prompt `checkpoint`. The loader honours it. */
export interface TranscriptRewindEntry {
	type: "rewind";
	checkpoint: string;
	code: boolean;
	conversation: boolean;
	/** The conversation was cut back to this many messages (when `conversation`). */
	messageIndex: number;
	/** The prompt texts whose turns were dropped, oldest first. */
	droppedPrompts: string[];
	restored: string[];
	removed: string[];
	conflicts: string[];
	/** What the rewind itself changed in the folder (when `code`). */
	segment?: CheckpointSegment;
	timestamp: number;
}

/** One prompt the session can rewind to. */
export interface CheckpointRecord {
	id: string;
	prompt: string;
	timestamp: number;
	messageIndex: number;
	/** Index into `segments` of the prompt's own work; undefined when no checkpoint was taken. */
	segment?: number;
}

/**
 * The prompts and the folder's history a session can rewind: built from the transcript's checkpoint and
 * rewind lines (a resumed session continues from them) and kept up to date as the session runs.
 */
export class CheckpointHistory {
	readonly prompts: CheckpointRecord[] = [];
	/** Every stretch of the session's own work, prompts and rewinds, in order (never dropped). */
	readonly segments: CheckpointSegment[] = [];
	readonly rewinds: TranscriptRewindEntry[] = [];

	apply(entry: TranscriptCheckpointEntry | TranscriptRewindEntry): void {
		if (entry.type === "checkpoint") {
			const record: CheckpointRecord = {
				id: entry.id,
				prompt: entry.prompt,
				timestamp: entry.timestamp,
				messageIndex: entry.messageIndex,
			};
			if (entry.segment !== undefined) record.segment = this.segments.push(entry.segment) - 1;
			this.prompts.push(record);
			return;
		}
		this.rewinds.push(entry);
		if (entry.segment !== undefined) this.segments.push(entry.segment);
		if (entry.conversation) {
			const position = this.prompts.findIndex((prompt) => prompt.id === entry.checkpoint);
			if (position !== -1) this.prompts.splice(position);
		}
	}

	/** The segments from prompt `record`'s on (the first segment after it when it has none), or []. */
	segmentsFrom(record: CheckpointRecord): CheckpointSegment[] {
		let start = record.segment;
		if (start === undefined) {
			const position = this.prompts.indexOf(record);
			start = this.prompts.slice(position).find((later) => later.segment !== undefined)?.segment;
		}
		return start === undefined ? [] : this.segments.slice(start);
	}
}
