import type { ResponseOutputItem, ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import type { StopReason, Usage } from "../types.js";
import { completeUsage } from "../usage.js";
import type { AssistantMessageBuilder } from "./message-builder.js";
import type { StoredReasoning } from "./openai-responses-input.js";

/** An output item in progress: the content block it streams into (reasoning: the current summary part). */
type OpenItem =
	| { kind: "reasoning"; part?: number }
	| { kind: "message"; text?: number }
	| { kind: "call"; contentIndex: number; streamed: boolean };

/**
 * Turns Responses API stream events into content blocks: each summary part of a reasoning item is a
 * thinking block (the last one keeps the item, encrypted content included, as its `signature`; an item
 * without summary becomes one redacted thinking block); message text is a text block; each function call
 * a tool call whose id is the `call_id`. Hosted-tool items (file search, web search) are skipped.
 */
export class ResponsesEventState {
	readonly #builder: AssistantMessageBuilder;
	readonly #items = new Map<number, OpenItem>();
	#calls = 0;
	#refusal = "";
	#outcome: Extract<StopReason, "stop" | "length" | "toolUse"> | { error: string } | undefined;
	usage: Usage | undefined;

	readonly #freeform: ReadonlyMap<string, string>;

	/** `freeform`: the freeform (custom) tools by name, each with the name of its one string argument. */
	constructor(builder: AssistantMessageBuilder, freeform: ReadonlyMap<string, string> = new Map()) {
		this.#builder = builder;
		this.#freeform = freeform;
	}

	apply(event: ResponseStreamEvent): void {
		const type = event.type;
		if (type === "response.output_item.added") this.#added(event.output_index, event.item);
		else if (type === "response.reasoning_summary_part.added") this.#startPart(event.output_index);
		else if (type === "response.reasoning_summary_text.delta" || type === "response.reasoning_text.delta") {
			this.#appendThinking(event.output_index, event.delta);
		} else if (type === "response.output_text.delta") this.#appendText(event.output_index, event.delta);
		else if (type === "response.refusal.delta") this.#refusal += event.delta;
		else if (type === "response.function_call_arguments.delta" || type === "response.custom_tool_call_input.delta")
			this.#appendArguments(event.output_index, event.delta);
		else if (type === "response.output_item.done") this.#done(event.output_index, event.item);
		else if (type === "response.completed" || type === "response.incomplete" || type === "response.failed") {
			this.#finish(event.response);
		}
	}

	/** How the response ended; a stream without a terminal event is an error. */
	outcome(): Extract<StopReason, "stop" | "length" | "toolUse"> | { error: string } {
		if (this.#refusal) return { error: `The model refused to answer: ${this.#refusal}` };
		return this.#outcome ?? { error: "The stream ended before the response was completed" };
	}

	#added(index: number, item: ResponseOutputItem): void {
		if (item.type === "reasoning") this.#items.set(index, { kind: "reasoning" });
		else if (item.type === "message") this.#items.set(index, { kind: "message" });
		else if (item.type === "function_call") {
			this.#calls++;
			const contentIndex = this.#builder.startToolCall(item.call_id, item.name);
			this.#items.set(index, { kind: "call", contentIndex, streamed: false });
			if (item.arguments) this.#appendArguments(index, item.arguments);
		} else if (item.type === "custom_tool_call") {
			this.#calls++;
			const freeformArgument = this.#freeform.get(item.name) ?? "input";
			const contentIndex = this.#builder.startToolCall(item.call_id, item.name, { freeformArgument });
			this.#items.set(index, { kind: "call", contentIndex, streamed: false });
			if (item.input) this.#appendArguments(index, item.input);
		}
	}

	#startPart(index: number): number | undefined {
		const item = this.#items.get(index);
		if (item?.kind !== "reasoning") return undefined;
		if (item.part !== undefined) this.#builder.end(item.part);
		item.part = this.#builder.startThinking();
		return item.part;
	}

	#appendThinking(index: number, delta: string): void {
		const item = this.#items.get(index);
		if (item?.kind !== "reasoning") return;
		const part = item.part ?? this.#startPart(index);
		if (part !== undefined) this.#builder.append(part, delta);
	}

	#appendText(index: number, delta: string): void {
		const item = this.#items.get(index);
		if (item?.kind !== "message") return;
		item.text ??= this.#builder.startText();
		this.#builder.append(item.text, delta);
	}

	#appendArguments(index: number, delta: string): void {
		const item = this.#items.get(index);
		if (item?.kind !== "call") return;
		item.streamed = true;
		this.#builder.append(item.contentIndex, delta);
	}

	#done(index: number, done: ResponseOutputItem): void {
		const item = this.#items.get(index);
		this.#items.delete(index);
		if (item?.kind === "reasoning" && done.type === "reasoning") {
			const stored: StoredReasoning | undefined = done.encrypted_content
				? { type: "reasoning", summary: done.summary, encrypted_content: done.encrypted_content }
				: undefined;
			let part = item.part;
			if (part === undefined && stored) part = this.#builder.startThinking({ redacted: true });
			if (part === undefined) return;
			if (stored) this.#builder.update(part, { signature: JSON.stringify(stored) });
			this.#builder.end(part);
		} else if (item?.kind === "message" && done.type === "message") {
			if (item.text === undefined) {
				const text = done.content.flatMap((part) => (part.type === "output_text" ? [part.text] : [])).join("");
				if (text) this.#appendText(index, text);
				if (item.text === undefined) return;
			}
			this.#builder.end(item.text);
		} else if (item?.kind === "call" && (done.type === "function_call" || done.type === "custom_tool_call")) {
			const whole = done.type === "function_call" ? done.arguments : done.input;
			if (!item.streamed && whole) this.#builder.append(item.contentIndex, whole);
			this.#builder.end(item.contentIndex);
		}
	}

	#finish(response: {
		status?: string | null;
		usage?: ResponseUsage | null;
		error?: { code?: string | null; message?: string } | null;
		incomplete_details?: { reason?: string } | null;
	}): void {
		if (response.usage) this.usage = toUsage(response.usage);
		if (response.status === "failed") {
			const error = response.error;
			const code = error?.code ? ` (${error.code})` : "";
			this.#outcome = { error: `${error?.message ?? "The response failed"}${code}` };
		} else if (response.status === "incomplete") {
			const reason = response.incomplete_details?.reason;
			this.#outcome =
				reason === "content_filter"
					? { error: "The provider's content filter stopped the response (incomplete: content_filter)" }
					: "length";
		} else this.#outcome = this.#calls > 0 ? "toolUse" : "stop";
	}
}

function toUsage(usage: ResponseUsage): Usage {
	const cached = usage.input_tokens_details?.cached_tokens ?? 0;
	return completeUsage({
		input: Math.max(0, usage.input_tokens - cached),
		output: usage.output_tokens,
		cacheRead: cached,
		totalTokens: usage.total_tokens,
		reasoning: usage.output_tokens_details?.reasoning_tokens ?? 0,
	});
}
