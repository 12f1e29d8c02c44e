import Anthropic from "@anthropic-ai/sdk";
import type {
	Usage as AnthropicUsage,
	MessageDeltaUsage,
	RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { resolveApiKey } from "../api-keys.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import type { Context, Model, StopReason, StreamOptions } from "../types.js";
import { completeUsage } from "../usage.js";
import { toAnthropicRequest } from "./anthropic-request.js";
import { ABORTED_MESSAGE, errorText } from "./error-text.js";
import { AssistantMessageBuilder } from "./message-builder.js";

/**
 * The `anthropic-messages` provider: the Anthropic Messages API (streaming) through the official client.
 * Never throws or rejects: failures end the stream with `stopReason: "error"` (HTTP and streamed errors
 * carry the server's message) or `"aborted"`.
 */
export function streamAnthropicMessages(
	model: Model,
	context: Context,
	options?: StreamOptions,
): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	void run(model, context, options ?? {}, new AssistantMessageBuilder(model, events));
	return events;
}

type TokenCounts = { input: number; output: number; cacheRead: number; cacheWrite: number };

async function run(model: Model, context: Context, options: StreamOptions, builder: AssistantMessageBuilder) {
	const signal = options.signal;
	const tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	const usage = () => completeUsage(tokens);
	try {
		const key = resolveApiKey(model, options);
		if ("error" in key) return builder.fail("error", key.error);
		const client = new Anthropic({
			apiKey: key.apiKey,
			baseURL: model.baseUrl,
			maxRetries: options.maxRetries ?? 2,
			defaultHeaders: options.headers,
		});
		const response = await client.messages.create(toAnthropicRequest(model, context, options), { signal });
		builder.start();
		const blocks = new Map<number, number>();
		let stopReason: string | null = null;
		for await (const event of response) {
			if (signal?.aborted) break;
			if (event.type === "message_start") addTokens(tokens, event.message.usage);
			else if (event.type === "message_delta") {
				addTokens(tokens, event.usage);
				stopReason = event.delta.stop_reason ?? stopReason;
			} else applyBlockEvent(builder, blocks, event);
		}
		if (signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage());
		const reason = toStopReason(stopReason);
		if (typeof reason === "object") return builder.fail("error", reason.error, usage());
		builder.finish(reason, usage());
	} catch (error) {
		if (signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage());
		builder.fail("error", describeError(error), usage());
	}
}

/** Maps Anthropic block indexes to content indexes; block kinds Gantry does not model are skipped. */
function applyBlockEvent(builder: AssistantMessageBuilder, blocks: Map<number, number>, event: RawMessageStreamEvent) {
	if (event.type === "content_block_start") {
		const block = event.content_block;
		if (block.type === "text") {
			const contentIndex = builder.startText();
			blocks.set(event.index, contentIndex);
			builder.append(contentIndex, block.text);
		} else if (block.type === "thinking") {
			const contentIndex = builder.startThinking(block.signature ? { signature: block.signature } : {});
			blocks.set(event.index, contentIndex);
			builder.append(contentIndex, block.thinking);
		} else if (block.type === "redacted_thinking") {
			blocks.set(event.index, builder.startThinking({ redacted: true, signature: block.data }));
		} else if (block.type === "tool_use") {
			blocks.set(event.index, builder.startToolCall(block.id, block.name));
		}
		return;
	}
	if (event.type === "content_block_delta") {
		const contentIndex = blocks.get(event.index);
		if (contentIndex === undefined) return;
		const delta = event.delta;
		if (delta.type === "text_delta") builder.append(contentIndex, delta.text);
		else if (delta.type === "thinking_delta") builder.append(contentIndex, delta.thinking);
		else if (delta.type === "input_json_delta") builder.append(contentIndex, delta.partial_json);
		else if (delta.type === "signature_delta") builder.update(contentIndex, { signature: delta.signature });
		return;
	}
	if (event.type === "content_block_stop") {
		const contentIndex = blocks.get(event.index);
		if (contentIndex !== undefined) builder.end(contentIndex);
	}
}

/** message_start carries the input counts; message_delta the running output (and, lately, final input) counts. */
function addTokens(tokens: TokenCounts, usage: AnthropicUsage | MessageDeltaUsage | null | undefined): void {
	if (!usage) return;
	if (typeof usage.input_tokens === "number") tokens.input = usage.input_tokens;
	if (typeof usage.output_tokens === "number") tokens.output = usage.output_tokens;
	if (typeof usage.cache_read_input_tokens === "number") tokens.cacheRead = usage.cache_read_input_tokens;
	if (typeof usage.cache_creation_input_tokens === "number") tokens.cacheWrite = usage.cache_creation_input_tokens;
}

function toStopReason(reason: string | null): Extract<StopReason, "stop" | "length" | "toolUse"> | { error: string } {
	switch (reason) {
		case "tool_use":
			return "toolUse";
		case "max_tokens":
		case "model_context_window_exceeded":
			return "length";
		case "refusal":
			return { error: "The model refused to answer (stop_reason: refusal)" };
		case null:
			return { error: "The stream ended before the model finished its message" };
		default:
			return "stop";
	}
}

/** HTTP and streamed errors: the status (if any) and the server's own message rather than the raw body. */
function describeError(error: unknown): string {
	if (error instanceof Anthropic.APIError && error.apiMessage) {
		return error.status ? `${error.status} ${error.apiMessage}` : error.apiMessage;
	}
	return errorText(error);
}
