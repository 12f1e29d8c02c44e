import type { Usage } from "@gantry/ai";

/**
 * When and how a session compacts its context (`AgentSessionOptions.compaction`). Compaction changes only
 * what is sent to the model: the session's `messages` and its transcript keep the whole conversation.
 */
export interface CompactionOptions {
	/**
	 * Compact automatically when a request's input reaches `threshold` of the model's context window: old
	 * tool results are trimmed first (their content replaced by a note), then, when that is not enough, the
	 * conversation before the recent turns is summarised by the model. Default true.
	 */
	auto?: boolean;
	/** The share of `model.contextWindow` a request's input may reach before it is compacted. Default 0.8. */
	threshold?: number;
	/**
	 * About how many tokens of the most recent messages are kept as they are (never trimmed, never
	 * summarised); the cut lands on a turn boundary and never between a tool call and its result. Default:
	 * a quarter of the model's context window, at most 20 000.
	 */
	keepRecentTokens?: number;
}

/** Why a compaction ran: `session.compact()` (`/compact`), or a request reaching the threshold. */
export type CompactionReason = "manual" | "auto";

/** What a summarising compaction did (`session.compact()` resolves to it; `compaction_end` carries it). */
export interface CompactionResult {
	reason: CompactionReason;
	/** The model's summary of the conversation before the kept messages (and of any earlier summary). */
	summary: string;
	/** How many messages the summary stands for (the earlier summary's included). */
	summarizedMessages: number;
	/** The index in `session.messages` of the first message sent as it is after the summary. */
	firstKeptIndex: number;
	/** Estimated input tokens of the next request before and after (chars/4 where no usage is known). */
	tokensBefore: number;
	tokensAfter: number;
	/** Tokens (and cost) of the summary request. */
	usage: Usage;
}

/** The events of compaction, delivered to `session.subscribe` listeners (not to extensions). */
export type CompactionEvent =
	| { type: "compaction_start"; reason: CompactionReason; tokensBefore: number; contextWindow: number }
	/** `result` when the summary was made; `error` (and `aborted`) when the summary request failed. */
	| { type: "compaction_end"; reason: CompactionReason; result?: CompactionResult; error?: string; aborted?: boolean }
	/** Old tool results were trimmed to save context (automatic compaction's first step). */
	| {
			type: "tool_results_trim";
			toolCallIds: string[];
			/** Characters of content the trimmed results no longer send. */
			characters: number;
			tokensBefore: number;
			tokensAfter: number;
	  };

/** A transcript entry: from here on the conversation before `firstKeptIndex` is sent as `summary`. */
export interface TranscriptCompactionEntry {
	type: "compaction";
	reason: CompactionReason;
	summary: string;
	/** The index of the first kept message among the transcript's messages. */
	firstKeptIndex: number;
	tokensBefore: number;
	tokensAfter: number;
	usage?: Usage;
	/** The `/compact` instructions, when given. */
	instructions?: string;
	timestamp: string;
}

/** A transcript entry: these tool results are sent as a short note from here on. */
export interface TranscriptTrimEntry {
	type: "trim";
	toolCallIds: string[];
	characters: number;
}

/** The compaction a loaded transcript ends in (`LoadedTranscript.compaction`). */
export interface LoadedCompaction {
	/** The latest summary and where the kept messages start, if the session was ever summarised. */
	summary?: { text: string; firstKeptIndex: number };
	/** Every tool call whose result was trimmed. */
	trimmedToolCallIds: string[];
	/** How many messages the transcript held when the compaction state last changed. */
	changedAtMessage: number;
}
