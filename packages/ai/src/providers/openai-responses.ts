import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import type { Context, Model, StreamOptions, Usage } from "../types.js";
import { AssistantMessageBuilder } from "./message-builder.js";
import { createOpenAIClient } from "./openai-client.js";
import { ResponsesEventState } from "./openai-responses-events.js";
import { freeformTools, toResponsesInput, toResponsesToolChoice, toResponsesTools } from "./openai-responses-input.js";
import { type AttemptOutcome, type RequestAttempt, runRequest } from "./request-runner.js";
import { SdkLogCapture } from "./sdk-log.js";

/**
 * The `openai-responses` provider: OpenAI's Responses API (streaming) through the official client.
 * Requests are stateless (`store: false`): reasoning models, and any model `options.reasoning` is given
 * for unless its `reasoning` is false, get `include: ["reasoning.encrypted_content"]`, and their reasoning
 * items travel back in the next request. Never throws or rejects: failures end the
 * stream with `stopReason: "error"` or `"aborted"`.
 */
export function streamOpenAIResponses(
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
		const response = await client.responses.create(toResponsesRequest(model, context, settings), { signal });
		builder.start();
		const state = new ResponsesEventState(builder, freeformTools(model, context));
		for await (const event of response) {
			if (signal.aborted) break;
			state.apply(event);
			usage = state.usage ?? usage;
		}
		const outcome = state.outcome();
		return typeof outcome === "object" ? outcome : { stopReason: outcome };
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

/** The request body: stateless, with reasoning summaries and encrypted reasoning for reasoning models. */
export function toResponsesRequest(
	model: Model,
	context: Context,
	options: StreamOptions,
): ResponseCreateParamsStreaming {
	const body: ResponseCreateParamsStreaming = {
		model: model.id,
		input: toResponsesInput(model, context),
		stream: true,
		store: false,
	};
	if (context.systemPrompt) body.instructions = context.systemPrompt;
	const tools = toResponsesTools(model, context);
	if (tools) {
		body.tools = tools;
		if (options.toolChoice) body.tool_choice = toResponsesToolChoice(options.toolChoice, freeformTools(model, context));
		if (options.parallelToolCalls !== undefined) body.parallel_tool_calls = options.parallelToolCalls;
	}
	// Reasoning asked for on a model not known to reason (a custom endpoint) is sent too, and its
	// encrypted reasoning is asked back, or the next turn would start without it (requests are stateless).
	if (model.reasoning || (options.reasoning && model.reasoning === undefined)) {
		body.include = ["reasoning.encrypted_content"];
		body.reasoning = { summary: "auto", ...(options.reasoning ? { effort: options.reasoning } : {}) };
	}
	if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (options.sessionId) body.prompt_cache_key = options.sessionId;
	return body;
}
