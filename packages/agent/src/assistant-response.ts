import {
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	failedAssistantMessage,
	type Message,
	stream,
	withoutUndefined,
} from "@gantry/ai";
import { errorText } from "./errors.js";
import type { AgentEventSink } from "./tool-batch.js";
import type { AgentContext, AgentLoopConfig, AgentMessage, AgentTool } from "./types.js";

/** The assistant message of one model request and the tools that request declared. */
export interface AssistantResponse {
	message: AssistantMessage;
	tools: readonly AgentTool[];
}

/** Keeps the messages a model understands (user, assistant, tool results); drops custom ones. */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	return messages.filter((message): message is Message => {
		const role = (message as { role?: unknown }).role;
		return role === "user" || role === "assistant" || role === "toolResult";
	});
}

/**
 * Makes one model request and streams it out as `message_start`, `message_update`…, `message_end`.
 * `context.systemPrompt` and `context.tools` are read now, so assignments between requests take effect.
 * Never rejects: a throwing hook or provider ends as an assistant message with `stopReason: "error"`.
 */
export async function streamAssistantResponse(
	messages: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
): Promise<AssistantResponse> {
	const model = config.model;
	const tools = context.tools ?? [];
	let response: AssistantMessageEventStream;
	let partial: AssistantMessage | undefined;
	let message: AssistantMessage;
	try {
		const requestMessages = config.transformContext ? await config.transformContext(messages, signal) : messages;
		const llmMessages = config.convertToLlm
			? await config.convertToLlm(requestMessages)
			: defaultConvertToLlm(requestMessages);
		const apiKey = (config.getApiKey ? await config.getApiKey(model.provider) : undefined) ?? config.apiKey;
		const request: Context = { messages: llmMessages };
		if (context.systemPrompt !== undefined) request.systemPrompt = context.systemPrompt;
		if (tools.length > 0) request.tools = tools as AgentTool[];
		response = (config.streamFn ?? stream)(
			model,
			request,
			withoutUndefined({
				...config.streamOptions,
				apiKey,
				signal,
				maxTokens: config.maxTokens,
				temperature: config.temperature,
			}),
		);
		for await (const event of response) {
			if (event.type === "done" || event.type === "error") continue;
			if (partial === undefined) {
				partial = event.partial;
				const pending = emit({ type: "message_start", message: partial });
				if (pending !== undefined) await pending;
				if (event.type === "start") continue;
			}
			partial = event.partial;
			const pending = emit({ type: "message_update", message: partial, assistantMessageEvent: event });
			if (pending !== undefined) await pending;
		}
		message = await response.result();
	} catch (error) {
		message = failedAssistantMessage(model, signal?.aborted ? "aborted" : "error", errorText(error), partial);
	}
	if (partial === undefined) {
		const started = emit({ type: "message_start", message });
		if (started !== undefined) await started;
	}
	const ended = emit({ type: "message_end", message });
	if (ended !== undefined) await ended;
	return { message, tools };
}
