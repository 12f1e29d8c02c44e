import type { AssistantMessage, Model } from "@gantry/ai";
import type { AgentSessionEvent } from "@gantry/coding-agent";
import type { Theme, ToolDefinition } from "@gantry/extensions";
import { describeModelError } from "../model-errors.js";
import { sanitizeLine, truncateToWidth } from "./ansi.js";
import { formatDuration } from "./fallback-render.js";
import { MarkdownLines } from "./markdown.js";
import type { Screen } from "./screen.js";
import { SPINNER_INTERVAL_MS, spinnerFrame } from "./spinner.js";
import { type ToolCallState, ToolCallTracker } from "./tool-calls.js";
import { renderToolFrame, type ToolFrameContext } from "./tool-frame.js";

/** Options of {@link SessionView}. */
export interface SessionViewOptions {
	theme: Theme;
	/** The definition behind a tool name, for its renderers (`session.getToolDefinition`). */
	getDefinition(name: string): ToolDefinition | undefined;
	/**
	 * Show the assistant's text and thinking as they stream, and model errors. Default true; print mode
	 * turns it off (its answer goes to stdout, only tool activity is drawn).
	 */
	showAssistant?: boolean;
	/** The session's model, for the hints of a model error (its base URL). */
	modelInfo?: () => Model;
}

type Block = "none" | "text" | "tools";

/**
 * Draws a session's events on a screen: assistant text as it streams, each tool call as a frame (live
 * while it runs, with a spinner, elapsed time and streamed output; committed in call order once done),
 * nested calls inside their caller's frame, and a waiting line while the model thinks. The same view
 * serves interactive mode, print mode (on stderr) and the demo.
 */
export class SessionView {
	readonly #screen: Screen;
	readonly #options: SessionViewOptions;
	readonly #tracker = new ToolCallTracker();
	#running = false;
	#runStartedAt = 0;
	#streaming = false;
	#lastBlock: Block = "none";
	#timer: NodeJS.Timeout | undefined;
	readonly #markdown: MarkdownLines;
	/** The assistant text line still arriving (drawn raw until it ends, then as Markdown). */
	#textLine = "";
	/** When a question started waiting for the person (the clocks stop meanwhile), else undefined. */
	#waitingSince: number | undefined;

	constructor(screen: Screen, options: SessionViewOptions) {
		this.#screen = screen;
		this.#options = options;
		this.#markdown = new MarkdownLines(options.theme);
	}

	/**
	 * While a question waits for the person (a permission prompt), running calls show that they wait
	 * instead of a spinner and a growing time; the clocks go on once it is answered.
	 */
	setWaiting(waiting: boolean): void {
		if (waiting === (this.#waitingSince !== undefined)) return;
		this.#waitingSince = waiting ? Date.now() : undefined;
		if (waiting) this.#stopTimer();
		else if (this.#running) this.#startTimer();
		this.#refresh();
	}

	/** Handles one session event (pass it to `session.subscribe`). */
	handle = (event: AgentSessionEvent): void => {
		if (this.#tracker.apply(event)) {
			if (event.type === "tool_execution_start" && event.parentToolCallId === undefined) this.#separate("tools");
			this.#refresh();
			return;
		}
		switch (event.type) {
			case "agent_start":
				this.#running = true;
				this.#runStartedAt = Date.now();
				this.#startTimer();
				this.#refresh();
				break;
			case "agent_end":
				this.#running = false;
				this.#stopTimer();
				this.#commitFrames(this.#tracker.takeAll());
				this.#screen.endLine();
				this.#refresh();
				break;
			case "message_update":
				this.#onAssistantEvent(event.assistantMessageEvent);
				break;
			case "message_end":
				if ((event.message as { role?: string }).role === "assistant")
					this.#onAssistantEnd(event.message as AssistantMessage);
				break;
			case "compaction_start":
			case "compaction_end":
			case "tool_results_trim": {
				const line = compactionLine(event, this.#options.theme);
				if (line === undefined) break;
				this.#screen.endLine();
				this.#screen.commit([line]);
				this.#lastBlock = "none";
				this.#refresh();
				break;
			}
		}
	};

	/** Writes finished lines (user prompt, command output) above the live part. */
	commit(lines: readonly string[]): void {
		this.#screen.commit(lines);
		this.#lastBlock = "none";
	}

	/** Stops the spinner timer. */
	dispose(): void {
		this.#stopTimer();
	}

	#onAssistantEvent(update: Extract<AgentSessionEvent, { type: "message_update" }>["assistantMessageEvent"]): void {
		if (this.#options.showAssistant === false) return;
		const { theme } = this.#options;
		switch (update.type) {
			case "text_start":
			case "thinking_start":
				this.#separate("text");
				this.#screen.endLine();
				this.#streaming = true;
				if (update.type === "text_start") this.#markdown.reset();
				break;
			case "text_delta":
				this.#streamText(update.delta);
				break;
			case "thinking_delta":
				this.#screen.stream(
					update.delta
						.split("\n")
						.map((piece) => theme.dim(theme.italic(piece)))
						.join("\n"),
				);
				break;
			case "text_end":
			case "thinking_end":
				this.#flushText();
				this.#screen.endLine();
				this.#streaming = false;
				break;
		}
		this.#refresh();
	}

	/** Streams assistant text: finished lines as Markdown, the line still arriving as it is. */
	#streamText(delta: string): void {
		const lines = (this.#textLine + delta).split("\n");
		this.#textLine = lines.pop() ?? "";
		for (const line of lines) {
			this.#screen.setOpenLine("");
			this.#screen.stream(`${this.#styleLine(line)}\n`);
		}
		this.#screen.setOpenLine(this.#textLine);
	}

	#flushText(): void {
		if (this.#textLine === "") return;
		const line = this.#textLine;
		this.#textLine = "";
		this.#screen.setOpenLine("");
		this.#screen.stream(`${this.#styleLine(line)}\n`);
	}

	/** Markdown styling on a terminal; a pipe or file gets the Markdown source, which loses nothing. */
	#styleLine(line: string): string {
		return this.#screen.live ? this.#markdown.line(line) : line;
	}

	#onAssistantEnd(message: AssistantMessage): void {
		this.#flushText();
		this.#streaming = false;
		this.#screen.endLine();
		if (this.#options.showAssistant === false) return;
		const { theme } = this.#options;
		if (message.stopReason === "error") {
			const model = this.#options.modelInfo?.() ?? ({ api: message.api, id: message.model } as Model);
			this.#screen.commit([theme.error(`gantry: ${describeModelError(message.errorMessage, model)}`)]);
		} else if (message.stopReason === "aborted") {
			this.#screen.commit([theme.warning("Aborted.")]);
		}
		this.#refresh();
	}

	/** A blank line between a text block and a run of tool frames. */
	#separate(next: Block): void {
		if (this.#lastBlock !== "none" && this.#lastBlock !== next) this.#screen.commit([""]);
		this.#lastBlock = next;
	}

	#refresh(): void {
		this.#commitFrames(this.#tracker.takeFinished());
		if (!this.#screen.live) return;
		const now = Date.now();
		const context = this.#frameContext(now);
		const lines = this.#tracker.pending.flatMap((call) => renderToolFrame(call, context));
		if (this.#running && !this.#streaming && this.#tracker.pending.length === 0 && this.#waitingSince === undefined) {
			const { theme } = this.#options;
			lines.push(
				`${theme.accent(spinnerFrame(now))} ${theme.muted(`Working… ${formatDuration(now - this.#runStartedAt)}`)}`,
			);
		}
		this.#screen.setLive(lines);
	}

	/** Writes finished calls' frames (a resumed conversation's, redrawn). */
	commitToolCalls(calls: readonly ToolCallState[]): void {
		this.#commitFrames(calls);
		this.#lastBlock = "none";
	}

	/** Commits finished frames; on a terminal cut to its width, so a long output line cannot break the frame. */
	#commitFrames(calls: readonly ToolCallState[]): void {
		if (calls.length === 0) return;
		const context = this.#frameContext(Date.now());
		const lines = calls.flatMap((call) => renderToolFrame(call, context));
		const columns = this.#screen.columns;
		const clip = (line: string) =>
			truncateToWidth(sanitizeLine(line), Math.max(10, columns === undefined ? 0 : columns - 1));
		this.#screen.commit(columns === undefined ? lines : lines.map(clip));
	}

	#frameContext(now: number): ToolFrameContext {
		const columns = this.#screen.columns;
		return {
			theme: this.#options.theme,
			getDefinition: this.#options.getDefinition,
			spinner: spinnerFrame(now),
			now: this.#waitingSince ?? now,
			waiting: this.#waitingSince !== undefined,
			...(columns === undefined ? {} : { width: Math.max(20, columns - 1) }),
		};
	}

	#startTimer(): void {
		if (!this.#screen.live || this.#timer) return;
		this.#timer = setInterval(() => this.#refresh(), SPINNER_INTERVAL_MS);
		this.#timer.unref();
	}

	#stopTimer(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.#timer = undefined;
	}
}

const tokens = (value: number) => `~${value.toLocaleString("en-US")} tokens`;

/** The line a compaction event is shown as (a failed `/compact` is told by the command itself). */
function compactionLine(
	event: Extract<AgentSessionEvent, { type: "compaction_start" | "compaction_end" | "tool_results_trim" }>,
	theme: SessionViewOptions["theme"],
): string | undefined {
	if (event.type === "tool_results_trim") {
		const count = event.toolCallIds.length;
		return theme.muted(
			`Trimmed ${count} old tool result${count === 1 ? "" : "s"} (${event.characters.toLocaleString("en-US")} characters) to save context: ${tokens(event.tokensBefore)} → ${tokens(event.tokensAfter)}.`,
		);
	}
	if (event.type === "compaction_start") {
		const why =
			event.reason === "auto"
				? ` (${tokens(event.tokensBefore)} of a ${event.contextWindow.toLocaleString("en-US")}-token window)`
				: "";
		return theme.muted(`Compacting the conversation${why}…`);
	}
	if (event.result !== undefined) {
		const { summarizedMessages, tokensBefore, tokensAfter } = event.result;
		return theme.success(
			`Compacted: ${summarizedMessages} earlier messages are sent as a summary; the next request is ${tokens(tokensAfter)} instead of ${tokens(tokensBefore)}.`,
		);
	}
	return event.reason === "auto" ? theme.warning(`Compaction failed: ${event.error ?? "no summary"}`) : undefined;
}
