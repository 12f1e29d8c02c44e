import type {
	ChatCompletionChunk,
	ChatCompletionCreateParamsStreaming,
	ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import type { Context, Model, StopReason, StreamOptions, ToolChoice, Usage } from "../types.js";
import { completeUsage } from "../usage.js";
import { AssistantMessageBuilder } from "./message-builder.js";
import { createOpenAIClient } from "./openai-client.js";
import { REASONING_FIELDS, type ReasoningField, toOpenAIMessages, toOpenAITools } from "./openai-messages.js";
import { type AttemptOutcome, type RequestAttempt, runRequest } from "./request-runner.js";
import { SdkLogCapture } from "./sdk-log.js";

/**
 * The `openai-completions` provider: OpenAI chat completions (streaming) through the official client,
 * for OpenAI and every compatible endpoint (`model.baseUrl`). Never throws or rejects: failures end the
 * stream with `stopReason: "error"` (HTTP errors carry the server's message) or `"aborted"`.
 */
export function streamOpenAICompletions(
	model: Model,
	context: Context,
	options?: StreamOptions,
): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	const builder = new AssistantMessageBuilder(model, events);
	const settings = options ?? {};
	const log = new SdkLogCapture();
	let usage: Usage | undefined;
	const attempt = async (request: RequestAttempt): Promise<AttemptOutcome> => {
		const { signal } = request;
		const client = createOpenAIClient(model, settings, request, log);
		const response = await client.chat.completions.create(requestBody(model, context, settings), { signal });
		builder.start();
		const state = new ChunkState(builder);
		for await (const chunk of response) {
			if (signal.aborted) break;
			if (chunk.usage) usage = toUsage(chunk.usage);
			state.apply(chunk);
		}
		const stopReason = state.stopReason();
		return typeof stopReason === "object" ? stopReason : { stopReason };
	};
	void runRequest({
		model,
		options: settings,
		builder,
		attempt,
		usage: () => usage,
		describe: (error) => log.describe(error),
	});
	return events;
}

function requestBody(model: Model, context: Context, options: StreamOptions): ChatCompletionCreateParamsStreaming {
	const body: ChatCompletionCreateParamsStreaming = {
		model: model.id,
		messages: toOpenAIMessages(model, context),
		stream: true,
		stream_options: { include_usage: true },
	};
	const tools = toOpenAITools(model, context);
	if (tools) {
		body.tools = tools;
		if (options.toolChoice) body.tool_choice = toToolChoice(options.toolChoice);
		if (options.parallelToolCalls !== undefined) body.parallel_tool_calls = options.parallelToolCalls;
	}
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (options.maxTokens !== undefined) {
		// OpenAI's reasoning models only accept the newer field; compatible servers know the older one.
		if (model.provider === "openai") body.max_completion_tokens = options.maxTokens;
		else body.max_tokens = options.maxTokens;
	}
	if (options.reasoning && model.reasoning !== false) body.reasoning_effort = options.reasoning;
	// Only OpenAI itself is known to accept the cache key; compatible servers may reject unknown fields.
	if (options.sessionId && model.provider === "openai") body.prompt_cache_key = options.sessionId;
	return body;
}

function toToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
	return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

type StreamedToolCall = { contentIndex: number; id: string };

/** Turns chunks into content blocks: text and reasoning close each other; tool calls are keyed by index. */
class ChunkState {
	readonly #builder: AssistantMessageBuilder;
	readonly #toolCalls = new Map<number, StreamedToolCall>();
	#current: { kind: "text" | "thinking"; contentIndex: number } | undefined;
	#finishReason: string | undefined;
	#refusal = "";

	constructor(builder: AssistantMessageBuilder) {
		this.#builder = builder;
	}

	apply(chunk: ChatCompletionChunk): void {
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
		// Reasoning servers (DeepSeek, vLLM, llama.cpp) use `reasoning_content`; OpenRouter and Ollama `reasoning`.
		for (const field of REASONING_FIELDS) {
			const reasoning = delta[field];
			if (typeof reasoning === "string" && reasoning) this.#appendTo("thinking", reasoning, field);
		}
		if (delta.content) this.#appendTo("text", delta.content);
		if (delta.refusal) this.#refusal += delta.refusal;
		for (const call of delta.tool_calls ?? []) this.#applyToolCall(call);
		if (choice.finish_reason) this.#finishReason = choice.finish_reason;
	}

	/** The stop reason of the finished stream, or the error it stands for. */
	stopReason(): Extract<StopReason, "stop" | "length" | "toolUse"> | { error: string } {
		if (this.#refusal) return { error: `The model refused to answer: ${this.#refusal}` };
		switch (this.#finishReason) {
			case "length":
				return "length";
			case "content_filter":
				return { error: "The provider's content filter stopped the response (finish_reason: content_filter)" };
			case "tool_calls":
			case "function_call":
				return "toolUse";
			default:
				// Some compatible servers answer tool calls with finish_reason "stop".
				return this.#toolCalls.size > 0 ? "toolUse" : "stop";
		}
	}

	/** Thinking remembers the field it streamed in, to be sent back in that field. */
	#appendTo(kind: "text" | "thinking", delta: string, field?: ReasoningField): void {
		if (this.#current?.kind !== kind) {
			if (this.#current) this.#builder.end(this.#current.contentIndex);
			const contentIndex =
				kind === "text"
					? this.#builder.startText()
					: this.#builder.startThinking(field ? { reasoningField: field } : {});
			this.#current = { kind, contentIndex };
		}
		this.#builder.append(this.#current.contentIndex, delta);
	}

	#applyToolCall(call: ChatCompletionChunk.Choice.Delta.ToolCall): void {
		const key = this.#toolCallKey(call);
		let streamed = this.#toolCalls.get(key);
		if (!streamed) {
			// Servers stream parallel calls one after the other, so a new call completes the previous blocks.
			if (this.#current) this.#builder.end(this.#current.contentIndex);
			this.#current = undefined;
			for (const previous of this.#toolCalls.values()) this.#builder.end(previous.contentIndex);
			const id = call.id ?? `call_${key}`;
			streamed = { contentIndex: this.#builder.startToolCall(id, call.function?.name ?? ""), id };
			this.#toolCalls.set(key, streamed);
		} else if (call.function?.name) {
			this.#builder.update(streamed.contentIndex, { name: call.function.name });
		}
		if (call.function?.arguments) this.#builder.append(streamed.contentIndex, call.function.arguments);
	}

	/** Calls are keyed by `index`; servers that omit it are keyed by id (a new id starts a new call). */
	#toolCallKey(call: ChatCompletionChunk.Choice.Delta.ToolCall): number {
		if (typeof call.index === "number") return call.index;
		const entries = [...this.#toolCalls.entries()];
		const known = entries.find(([, streamed]) => streamed.id === call.id);
		if (known) return known[0];
		if (call.id || entries.length === 0) return entries.length;
		return entries.at(-1)?.[0] ?? entries.length;
	}
}

function toUsage(usage: NonNullable<ChatCompletionChunk["usage"]>): Usage {
	const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
	const reasoning = usage.completion_tokens_details?.reasoning_tokens;
	return completeUsage({
		input: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
		output: usage.completion_tokens ?? 0,
		cacheRead: cached,
		...(reasoning ? { reasoning } : {}),
	});
}
