import { createAssistantMessage, failedAssistantMessage } from "../assistant-message.js";
import type { AssistantMessageEventStream } from "../event-stream.js";
import { errorText } from "../gantry-error.js";
import type {
	AssistantMessage,
	JsonValue,
	Model,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	Usage,
} from "../types.js";
import { priceUsage } from "../usage.js";

type OpenBlock =
	| { kind: "text"; block: TextContent }
	| { kind: "thinking"; block: ThinkingContent }
	| { kind: "toolCall"; block: ToolCall; rawArguments: string; freeformArgument?: string };

/**
 * Builds one assistant message from a provider's stream and pushes the matching events: each block gets
 * its `*_start`, deltas and `*_end` (a failure closes the open blocks before its `error`); the message
 * ends with exactly one `done` or `error`. Blocks are addressed by their index in `message.content`. The
 * final usage is priced from `model.cost`.
 */
export class AssistantMessageBuilder {
	readonly message: AssistantMessage;
	readonly #events: AssistantMessageEventStream;
	readonly #model: Model;
	readonly #open = new Map<number, OpenBlock>();
	#started = false;
	#finished = false;

	constructor(model: Model, events: AssistantMessageEventStream) {
		this.#model = model;
		this.#events = events;
		this.message = createAssistantMessage(model);
	}

	/** Pushes the `start` event (once). */
	start(): void {
		if (this.#started) return;
		this.#started = true;
		this.#events.push({ type: "start", partial: this.message });
	}

	startText(): number {
		const block: TextContent = { type: "text", text: "" };
		return this.#startBlock({ kind: "text", block }, "text_start");
	}

	startThinking(fields: Partial<ThinkingContent> = {}): number {
		const block: ThinkingContent = { type: "thinking", thinking: "", ...fields };
		return this.#startBlock({ kind: "thinking", block }, "thinking_start");
	}

	/**
	 * Starts a tool call. With `freeformArgument` the streamed text is the call's input as it is (a
	 * freeform tool's), and the arguments become `{ [freeformArgument]: text }`; otherwise it is JSON.
	 */
	startToolCall(id: string, name: string, options: { freeformArgument?: string } = {}): number {
		const block: ToolCall = { type: "toolCall", id, name, arguments: {} };
		const open: OpenBlock = { kind: "toolCall", block, rawArguments: "" };
		if (options.freeformArgument !== undefined) open.freeformArgument = options.freeformArgument;
		return this.#startBlock(open, "toolcall_start");
	}

	/** Adds a block the provider keeps for itself (no events: it is complete when it arrives). */
	addProviderBlock(api: string, kind: string, data: { [key: string]: JsonValue }): number {
		this.start();
		return this.message.content.push({ type: "provider", api, kind, data }) - 1;
	}

	/** Whether any block was started (a request that failed before this point may be retried). */
	get hasContent(): boolean {
		return this.message.content.length > 0;
	}

	/** Appends a text, thinking or tool-argument delta to the open block at `contentIndex`. */
	append(contentIndex: number, delta: string): void {
		const open = this.#open.get(contentIndex);
		if (!open || delta === "") return;
		if (open.kind === "text") open.block.text += delta;
		else if (open.kind === "thinking") open.block.thinking += delta;
		else open.rawArguments += delta;
		const type = open.kind === "toolCall" ? "toolcall_delta" : (`${open.kind}_delta` as const);
		this.#events.push({ type, contentIndex, delta, partial: this.message });
	}

	/** Updates fields of an open block that arrive without a delta (signatures, late tool names). */
	update(contentIndex: number, fields: { signature?: string; name?: string; id?: string }): void {
		const open = this.#open.get(contentIndex);
		if (!open) return;
		if (open.kind === "thinking" && fields.signature !== undefined) {
			open.block.signature = (open.block.signature ?? "") + fields.signature;
		}
		if (open.kind === "toolCall") {
			if (fields.name && !open.block.name) open.block.name = fields.name;
			if (fields.id && !open.block.id) open.block.id = fields.id;
		}
	}

	/** Whether the block at `contentIndex` is still open. */
	isOpen(contentIndex: number): boolean {
		return this.#open.has(contentIndex);
	}

	/** Closes the block at `contentIndex`: pushes its `*_end`; tool-call arguments are parsed here. */
	end(contentIndex: number): void {
		const open = this.#open.get(contentIndex);
		if (!open) return;
		this.#open.delete(contentIndex);
		if (open.kind === "toolCall" && open.freeformArgument !== undefined) {
			open.block.arguments = { [open.freeformArgument]: open.rawArguments };
			this.#events.push({ type: "toolcall_end", contentIndex, toolCall: open.block, partial: this.message });
			return;
		}
		if (open.kind === "toolCall") {
			const parsed = parseToolCallArguments(open.rawArguments);
			open.block.arguments = parsed.arguments;
			if (parsed.error !== undefined) open.block.argumentsError = parsed.error;
			this.#events.push({ type: "toolcall_end", contentIndex, toolCall: open.block, partial: this.message });
			return;
		}
		const content = open.kind === "text" ? open.block.text : open.block.thinking;
		this.#events.push({ type: `${open.kind}_end`, contentIndex, content, partial: this.message });
	}

	/** Closes every open block, in content order. */
	endAll(): void {
		for (const contentIndex of [...this.#open.keys()].sort((a, b) => a - b)) this.end(contentIndex);
	}

	/** Ends the message successfully. */
	finish(stopReason: Extract<StopReason, "stop" | "length" | "toolUse">, usage: Usage): void {
		if (this.#finished) return;
		this.start();
		this.endAll();
		this.#finished = true;
		this.message.stopReason = stopReason;
		this.message.usage = priceUsage(usage, this.#model.cost);
		this.#events.push({ type: "done", reason: stopReason, message: this.message });
		this.#events.end();
	}

	/** Ends the message as failed; the content streamed so far is kept. */
	fail(reason: "error" | "aborted", errorMessage: string, usage?: Usage): void {
		if (this.#finished) return;
		this.endAll();
		this.#finished = true;
		const message = failedAssistantMessage(this.#model, reason, errorMessage, this.message);
		if (usage) message.usage = priceUsage(usage, this.#model.cost);
		this.#events.push({ type: "error", reason, error: message });
		this.#events.end();
	}

	#startBlock(open: OpenBlock, type: "text_start" | "thinking_start" | "toolcall_start"): number {
		this.start();
		const contentIndex = this.message.content.length;
		this.message.content.push(open.block);
		this.#open.set(contentIndex, open);
		this.#events.push({ type, contentIndex, partial: this.message });
		return contentIndex;
	}
}

/**
 * Parses streamed tool-call arguments. Empty text means no arguments. Text that is not a JSON object
 * yields `arguments: {}` and an `error` explaining why (the agent answers such a call with that error).
 */
export function parseToolCallArguments(raw: string): { arguments: Record<string, unknown>; error?: string } {
	if (raw.trim() === "") return { arguments: {} };
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch (error) {
		const reason = errorText(error);
		return { arguments: {}, error: `Invalid JSON in tool arguments (${reason}): ${excerpt(raw)}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { arguments: {}, error: `Tool arguments must be a JSON object: ${excerpt(raw)}` };
	}
	return { arguments: value as Record<string, unknown> };
}

function excerpt(raw: string): string {
	return raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
}
