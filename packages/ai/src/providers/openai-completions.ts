import OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { resolveApiKey } from "../api-keys.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import type { Context, Model, StopReason, StreamOptions, Usage } from "../types.js";
import { completeUsage } from "../usage.js";
import { ABORTED_MESSAGE, errorText } from "./error-text.js";
import { AssistantMessageBuilder } from "./message-builder.js";
import { toOpenAIMessages, toOpenAITools } from "./openai-messages.js";

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
	void run(model, context, options ?? {}, new AssistantMessageBuilder(model, events));
	return events;
}

async function run(model: Model, context: Context, options: StreamOptions, builder: AssistantMessageBuilder) {
	const signal = options.signal;
	let usage: Usage | undefined;
	try {
		const key = resolveApiKey(model, options);
		if ("error" in key) return builder.fail("error", key.error);
		const client = new OpenAI({
			apiKey: key.apiKey,
			baseURL: model.baseUrl,
			maxRetries: options.maxRetries ?? 2,
			defaultHeaders: options.headers,
		});
		const response = await client.chat.completions.create(requestBody(model, context, options), { signal });
		builder.start();
		const state = new ChunkState(builder);
		for await (const chunk of response) {
			if (signal?.aborted) break;
			if (chunk.usage) usage = toUsage(chunk.usage);
			state.apply(chunk);
		}
		if (signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage);
		const stopReason = state.stopReason();
		if (typeof stopReason === "object") return builder.fail("error", stopReason.error, usage);
		builder.finish(stopReason, usage ?? completeUsage());
	} catch (error) {
		if (signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage);
		builder.fail("error", errorText(error), usage);
	}
}

function requestBody(model: Model, context: Context, options: StreamOptions): ChatCompletionCreateParamsStreaming {
	const body: ChatCompletionCreateParamsStreaming = {
		model: model.id,
		messages: toOpenAIMessages(model, context),
		stream: true,
		stream_options: { include_usage: true },
	};
	const tools = toOpenAITools(model, context);
	if (tools) body.tools = tools;
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (options.maxTokens !== undefined) {
		// OpenAI's reasoning models only accept the newer field; compatible servers know the older one.
		if (model.provider === "openai") body.max_completion_tokens = options.maxTokens;
		else body.max_tokens = options.maxTokens;
	}
	return body;
}

type StreamedToolCall = { contentIndex: number; id: string };

/** Turns chunks into content blocks: text and reasoning close each other; tool calls are keyed by index. */
class ChunkState {
	readonly #builder: AssistantMessageBuilder;
	readonly #toolCalls = new Map<number, StreamedToolCall>();
	#current: { kind: "text" | "thinking"; contentIndex: number } | undefined;
	#finishReason: string | undefined;

	constructor(builder: AssistantMessageBuilder) {
		this.#builder = builder;
	}

	apply(chunk: ChatCompletionChunk): void {
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
		// Reasoning servers (DeepSeek, vLLM, llama.cpp) use `reasoning_content`; OpenRouter and Ollama `reasoning`.
		const reasoning = delta.reasoning_content ?? delta.reasoning;
		if (typeof reasoning === "string" && reasoning) this.#appendTo("thinking", reasoning);
		if (delta.content) this.#appendTo("text", delta.content);
		if (delta.refusal) this.#appendTo("text", delta.refusal);
		for (const call of delta.tool_calls ?? []) this.#applyToolCall(call);
		if (choice.finish_reason) this.#finishReason = choice.finish_reason;
	}

	/** The stop reason of the finished stream, or the error it stands for. */
	stopReason(): Extract<StopReason, "stop" | "length" | "toolUse"> | { error: string } {
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

	#appendTo(kind: "text" | "thinking", delta: string): void {
		if (this.#current?.kind !== kind) {
			if (this.#current) this.#builder.end(this.#current.contentIndex);
			const contentIndex = kind === "text" ? this.#builder.startText() : this.#builder.startThinking();
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
		return entries[entries.length - 1][0];
	}
}

function toUsage(usage: NonNullable<ChatCompletionChunk["usage"]>): Usage {
	const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
	return completeUsage({
		input: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
		output: usage.completion_tokens ?? 0,
		cacheRead: cached,
	});
}
