import type { AgentMessage } from "@gantry/agent";
import { emptyUsage, type Model } from "@gantry/ai";
import { CodingAgentError } from "../errors.js";
import { findCutIndex } from "./cut-point.js";
import { estimateMessageTokens, measuredAssistant, usageContextTokens } from "./estimate-tokens.js";
import { summaryMessage } from "./summary-prompt.js";
import type { SummaryOutcome } from "./summary-request.js";
import { applyTrim, trimCandidates } from "./trim-tool-results.js";
import type {
	CompactionEvent,
	CompactionOptions,
	CompactionReason,
	CompactionResult,
	LoadedCompaction,
	TranscriptCompactionEntry,
	TranscriptTrimEntry,
} from "./types.js";

/** What the compactor needs of its session. */
export interface CompactorHost {
	model(): Model;
	/** Characters the system prompt and the tool declarations take (sent with every request). */
	fixedCharacters(): number;
	summarize(
		messages: readonly AgentMessage[],
		previousSummary: string | undefined,
		instructions: string | undefined,
		signal: AbortSignal | undefined,
	): Promise<SummaryOutcome>;
	/** Writes an entry to the transcript, when there is one. */
	record(entry: TranscriptCompactionEntry | TranscriptTrimEntry): void;
	emit(event: CompactionEvent): Promise<void>;
}

const DEFAULT_THRESHOLD = 0.8;
const MAX_KEEP_RECENT_TOKENS = 20_000;

/**
 * A session's compaction state and what it does with it: the summary that stands for the conversation
 * before `firstKept`, the trimmed tool results, and `view`, the messages as they are sent. `transform`
 * is the agent's `transformContext`: before each request it checks the input against the threshold and
 * compacts when it is reached.
 */
export class ContextCompactor {
	readonly #host: CompactorHost;
	readonly #options: CompactionOptions;
	#summary: { text: string; firstKeptIndex: number; firstKept: AgentMessage | undefined } | undefined;
	readonly #trimmed = new Set<string>();
	/** The message count when the state last changed: only responses after it measured the current view. */
	#changedAt = 0;
	/** The run whose automatic summary failed: it is not retried before the next run. */
	#failedSignal: AbortSignal | undefined;
	#manual: AbortController | undefined;

	constructor(
		host: CompactorHost,
		options: CompactionOptions = {},
		loaded?: LoadedCompaction,
		messages: readonly AgentMessage[] = [],
	) {
		const threshold = options.threshold ?? DEFAULT_THRESHOLD;
		if (!(threshold > 0 && threshold <= 1)) {
			throw new CodingAgentError(
				"invalid_option",
				`compaction.threshold must be above 0 and at most 1 (got ${threshold})`,
			);
		}
		const keep = options.keepRecentTokens;
		if (keep !== undefined && !(Number.isFinite(keep) && keep >= 0)) {
			throw new CodingAgentError(
				"invalid_option",
				`compaction.keepRecentTokens must be a number of tokens, 0 or more (got ${keep})`,
			);
		}
		this.#host = host;
		this.#options = options;
		if (loaded === undefined) return;
		for (const id of loaded.trimmedToolCallIds) this.#trimmed.add(id);
		this.#changedAt = loaded.changedAtMessage;
		const summary = loaded.summary;
		if (summary !== undefined && summary.firstKeptIndex <= messages.length) {
			this.#summary = {
				text: summary.text,
				firstKeptIndex: summary.firstKeptIndex,
				firstKept: messages[summary.firstKeptIndex],
			};
		}
	}

	/** The latest summary, if the conversation was summarised. */
	get summary(): string | undefined {
		return this.#summary?.text;
	}

	/** Where the messages sent as they are start (0 before any summary, or when the summary no longer fits them). */
	firstKeptIndex(messages: readonly AgentMessage[]): number {
		const summary = this.#summary;
		if (summary === undefined) return 0;
		// A conversation rewound or replaced under the summary is no longer the one it stands for.
		if (summary.firstKeptIndex > messages.length || messages[summary.firstKeptIndex] !== summary.firstKept) return 0;
		return summary.firstKeptIndex;
	}

	/** The messages as they are sent: the summary in place of what it stands for, trimmed results as notes. */
	view(messages: readonly AgentMessage[]): AgentMessage[] {
		const from = this.firstKeptIndex(messages);
		const kept = messages.slice(from).map((message) => applyTrim(message, this.#trimmed));
		return from === 0 || this.#summary === undefined ? kept : [summaryMessage(this.#summary.text), ...kept];
	}

	/**
	 * The next request's input tokens: the last response's usage plus chars/4 for what came after it, when
	 * that response saw the current view; else chars/4 for the whole view, the system prompt and tools.
	 */
	estimateTokens(messages: readonly AgentMessage[]): number {
		const from = Math.max(this.#changedAt, this.firstKeptIndex(messages));
		for (let index = messages.length - 1; index >= from; index--) {
			const measured = measuredAssistant(messages[index] as AgentMessage);
			if (measured === undefined) continue;
			let tokens = usageContextTokens(measured.usage);
			for (const later of messages.slice(index + 1)) tokens += estimateMessageTokens(applyTrim(later, this.#trimmed));
			return tokens;
		}
		const fixed = Math.ceil(this.#host.fixedCharacters() / 4);
		return this.view(messages).reduce((sum, message) => sum + estimateMessageTokens(message), fixed);
	}

	/** The agent's `transformContext`: compacts when the input reaches the threshold, then returns the view. */
	async transform(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]> {
		const window = this.#host.model().contextWindow;
		if (this.#options.auto === false || !(window > 0)) return this.view(messages);
		const limit = window * (this.#options.threshold ?? DEFAULT_THRESHOLD);
		let tokens = this.estimateTokens(messages);
		if (tokens < limit) return this.view(messages);
		tokens = await this.#trimOld(messages, tokens);
		if (tokens >= limit && (signal === undefined || signal !== this.#failedSignal)) {
			const result = await this.#summarize(messages, "auto", undefined, signal, tokens);
			if (!result.ok) this.#failedSignal = signal;
		}
		return this.view(messages);
	}

	/**
	 * `session.compact()`: summarises all but the recent turns now (at least the last turn is kept).
	 * Rejects with `compaction_failed` when there is nothing to summarise yet or the summary request fails.
	 */
	async compact(messages: readonly AgentMessage[], instructions?: string): Promise<CompactionResult> {
		this.#manual = new AbortController();
		try {
			const outcome = await this.#summarize(
				messages,
				"manual",
				instructions,
				this.#manual.signal,
				this.estimateTokens(messages),
			);
			if (!outcome.ok) throw new CodingAgentError("compaction_failed", outcome.error);
			return outcome.result;
		} finally {
			this.#manual = undefined;
		}
	}

	/** `session.compact()`: refused on a disposed session (`session_disposed`) and during a run (`busy`). */
	compactSession(
		state: { messages: readonly AgentMessage[]; isStreaming: boolean },
		instructions: string | undefined,
		disposed: boolean,
	): Promise<CompactionResult> {
		if (disposed) return Promise.reject(new CodingAgentError("session_disposed", "The session was disposed"));
		if (state.isStreaming) {
			return Promise.reject(new CodingAgentError("busy", "compact() waits for the run to end (or abort() it first)"));
		}
		return this.compact(state.messages, instructions);
	}

	/** Aborts a running `compact()`. */
	abort(): void {
		this.#manual?.abort();
	}

	#keepTokens(): number {
		const window = this.#host.model().contextWindow;
		return this.#options.keepRecentTokens ?? Math.min(MAX_KEEP_RECENT_TOKENS, Math.floor(Math.max(window || 0, 0) / 4));
	}

	/** Trims the not yet trimmed tool results before the recent part; resolves to the new estimate. */
	async #trimOld(messages: readonly AgentMessage[], tokensBefore: number): Promise<number> {
		const from = this.firstKeptIndex(messages);
		const recent = findCutIndex(messages, this.#keepTokens(), from) ?? from;
		const { toolCallIds, characters } = trimCandidates(messages, from, recent, this.#trimmed);
		if (toolCallIds.length === 0) return tokensBefore;
		for (const id of toolCallIds) this.#trimmed.add(id);
		this.#changedAt = messages.length;
		const tokensAfter = this.estimateTokens(messages);
		this.#host.record({ type: "trim", toolCallIds, characters });
		await this.#host.emit({ type: "tool_results_trim", toolCallIds, characters, tokensBefore, tokensAfter });
		return tokensAfter;
	}

	async #summarize(
		messages: readonly AgentMessage[],
		reason: CompactionReason,
		instructions: string | undefined,
		signal: AbortSignal | undefined,
		tokensBefore: number,
	): Promise<{ ok: true; result: CompactionResult } | { ok: false; error: string }> {
		const from = this.firstKeptIndex(messages);
		const cut = findCutIndex(messages, this.#keepTokens(), from, reason === "manual");
		if (cut === undefined || cut <= from) {
			return {
				ok: false,
				error: "Nothing to compact yet: the conversation is no longer than the turns that are kept.",
			};
		}
		const contextWindow = this.#host.model().contextWindow;
		await this.#host.emit({ type: "compaction_start", reason, tokensBefore, contextWindow });
		const previous = from === 0 ? undefined : this.#summary?.text;
		const part = messages.slice(from, cut).map((message) => applyTrim(message, this.#trimmed));
		const outcome = await this.#host.summarize(part, previous, instructions, signal);
		if (!outcome.ok) {
			await this.#host.emit({ type: "compaction_end", reason, error: outcome.error, aborted: outcome.aborted });
			return { ok: false, error: `The summary request failed: ${outcome.error}` };
		}
		this.#summary = { text: outcome.summary, firstKeptIndex: cut, firstKept: messages[cut] };
		this.#changedAt = messages.length;
		const result: CompactionResult = {
			reason,
			summary: outcome.summary,
			summarizedMessages: cut,
			firstKeptIndex: cut,
			tokensBefore,
			tokensAfter: this.estimateTokens(messages),
			usage: outcome.usage ?? emptyUsage(),
		};
		this.#host.record({
			type: "compaction",
			reason,
			summary: result.summary,
			firstKeptIndex: cut,
			tokensBefore,
			tokensAfter: result.tokensAfter,
			usage: result.usage,
			...(instructions === undefined || instructions.trim() === "" ? {} : { instructions: instructions.trim() }),
			timestamp: new Date().toISOString(),
		});
		await this.#host.emit({ type: "compaction_end", reason, result });
		return { ok: true, result };
	}
}
