import Anthropic from "@anthropic-ai/sdk";
import type {
	Usage as AnthropicUsage,
	MessageDeltaUsage,
	RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import { modelDeprecationWarning, reportProviderWarning } from "../provider-warnings.js";
import type { AssistantMessage, Context, JsonValue, Model, StopReason, StreamOptions } from "../types.js";
import { addUsage, completeUsage } from "../usage.js";
import { toAnthropicRequest } from "./anthropic-request.js";
import { AssistantMessageBuilder } from "./message-builder.js";
import { type AttemptOutcome, type RequestAttempt, runRequest } from "./request-runner.js";
import { SdkLogCapture } from "./sdk-log.js";
import { withSdkWarningsCaught } from "./sdk-warnings.js";

/** How often a turn that the server paused (`stop_reason: pause_turn`) is continued before giving up. */
const MAX_CONTINUATIONS = 5;
const API = "anthropic-messages";

/**
 * The `anthropic-messages` provider: the Anthropic Messages API (streaming) through the official client.
 * A turn the server paused in a long server-tool run is continued (up to 5 times) into the same message.
 * Never throws or rejects: failures end the stream with `stopReason: "error"` (HTTP and streamed errors
 * carry the server's message) or `"aborted"`.
 */
export function streamAnthropicMessages(
	model: Model,
	context: Context,
	options?: StreamOptions,
): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	const builder = new AssistantMessageBuilder(model, events);
	const settings = options ?? {};
	const total = completeUsage();
	const log = new SdkLogCapture();
	let reported = false;
	const deprecation = modelDeprecationWarning(model);
	if (deprecation) reportProviderWarning(deprecation);
	const attempt = async ({ signal, fetch, apiKey }: RequestAttempt): Promise<AttemptOutcome> => {
		log.reset();
		const client = new Anthropic({
			apiKey,
			baseURL: model.baseUrl,
			maxRetries: 0,
			fetch,
			defaultHeaders: settings.headers,
			// What the client would print is kept: a chunk it cannot parse is quoted in the error.
			logLevel: "error",
			logger: log.logger,
		});
		for (let continuation = 0; ; continuation++) {
			const tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
			const request = toAnthropicRequest(model, withPartialTurn(context, builder.message, continuation), settings);
			const response = await withSdkWarningsCaught(() => client.messages.create(request, { signal }));
			builder.start();
			const blocks = new Map<number, WireBlock>();
			let stopReason: string | null = null;
			try {
				for await (const event of response) {
					if (signal.aborted) break;
					if (event.type === "message_start") addTokens(tokens, event.message.usage);
					else if (event.type === "message_delta") {
						addTokens(tokens, event.usage);
						stopReason = event.delta.stop_reason ?? stopReason;
					} else applyBlockEvent(builder, blocks, event);
				}
			} finally {
				addUsage(total, completeUsage(tokens));
				reported = true;
			}
			if (stopReason === "pause_turn" && continuation < MAX_CONTINUATIONS && !signal.aborted) continue;
			return toOutcome(stopReason);
		}
	};
	void runRequest({
		model,
		options: settings,
		builder,
		attempt,
		usage: () => (reported ? structuredClone(total) : undefined),
		describe: (error) => describeError(error, log),
	});
	return events;
}

/** A continuation sends the paused assistant turn back so far, and the model goes on from there. */
function withPartialTurn(context: Context, partial: AssistantMessage, continuation: number): Context {
	if (continuation === 0) return context;
	const paused: AssistantMessage = { ...partial, content: [...partial.content], stopReason: "stop" };
	return { ...context, messages: [...context.messages, paused] };
}

type TokenCounts = { input: number; output: number; cacheRead: number; cacheWrite: number };
/** A wire block: the content index it became, and for server-tool calls the input JSON streamed so far. */
type WireBlock = { contentIndex: number; provider?: { data: { [key: string]: JsonValue }; inputJson: string } };

/**
 * Maps Anthropic block indexes to content indexes. Blocks Gantry does not model (server tools and their
 * results) are kept whole as `provider` blocks, with their streamed input.
 */
function applyBlockEvent(
	builder: AssistantMessageBuilder,
	blocks: Map<number, WireBlock>,
	event: RawMessageStreamEvent,
) {
	if (event.type === "content_block_start") {
		const block = event.content_block;
		let contentIndex: number;
		if (block.type === "text") {
			contentIndex = builder.startText();
			builder.append(contentIndex, block.text);
		} else if (block.type === "thinking") {
			contentIndex = builder.startThinking(block.signature ? { signature: block.signature } : {});
			builder.append(contentIndex, block.thinking);
		} else if (block.type === "redacted_thinking") {
			contentIndex = builder.startThinking({ redacted: true, signature: block.data });
		} else if (block.type === "tool_use") {
			contentIndex = builder.startToolCall(block.id, block.name);
		} else {
			const data = JSON.parse(JSON.stringify(block)) as { [key: string]: JsonValue };
			blocks.set(event.index, {
				contentIndex: builder.addProviderBlock(API, block.type, data),
				provider: { data, inputJson: "" },
			});
			return;
		}
		blocks.set(event.index, { contentIndex });
		return;
	}
	const wire = "index" in event ? blocks.get(event.index) : undefined;
	if (!wire) return;
	if (event.type === "content_block_delta") {
		const delta = event.delta;
		if (wire.provider) {
			if (delta.type === "input_json_delta") wire.provider.inputJson += delta.partial_json;
		} else if (delta.type === "text_delta") builder.append(wire.contentIndex, delta.text);
		else if (delta.type === "thinking_delta") builder.append(wire.contentIndex, delta.thinking);
		else if (delta.type === "input_json_delta") builder.append(wire.contentIndex, delta.partial_json);
		else if (delta.type === "signature_delta") builder.update(wire.contentIndex, { signature: delta.signature });
		return;
	}
	if (event.type === "content_block_stop") {
		if (wire.provider?.inputJson.trim()) wire.provider.data.input = parseInput(wire.provider.inputJson);
		builder.end(wire.contentIndex);
	}
}

function parseInput(json: string): JsonValue {
	try {
		return JSON.parse(json) as JsonValue;
	} catch {
		return json;
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

function toOutcome(reason: string | null): AttemptOutcome {
	const stopReason = toStopReason(reason);
	return typeof stopReason === "object" ? stopReason : { stopReason };
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
		case "pause_turn":
			return {
				error: `The server paused the turn ${MAX_CONTINUATIONS + 1} times (stop_reason: pause_turn); send the conversation again to continue it`,
			};
		case null:
			return { error: "The stream ended before the model finished its message" };
		default:
			return "stop";
	}
}

/** HTTP and streamed errors: the status (if any) and the server's own message rather than the raw body. */
function describeError(error: unknown, log: SdkLogCapture): string {
	if (error instanceof Anthropic.APIError && error.apiMessage) {
		return error.status ? `${error.status} ${error.apiMessage}` : error.apiMessage;
	}
	return log.describe(error);
}
