/** One prompt `listCheckpoints()` offers to rewind to. */
export interface CheckpointInfo {
	/** Pass to `rewind`. */
	id: string;
	/** The prompt's text. */
	prompt: string;
	/** When the prompt started, milliseconds since the epoch. */
	timestamp: number;
	/** The files the session changed from this prompt on (relative to the working folder, with `/`). */
	files: string[];
}

/** What `rewind` should undo. */
export interface RewindOptions {
	/** Put back the files the session changed from that prompt on. */
	code?: boolean;
	/** Drop that prompt and every later turn from the conversation and the transcript. */
	conversation?: boolean;
}

/** What `rewind` did. */
export interface RewindResult {
	/** Files written back as they were before the prompt. */
	restored: string[];
	/** Files the session had created since, deleted. */
	removed: string[];
	/** Files the session changed that were changed outside it too (by the user): left as they are. */
	conflicts?: string[];
}
