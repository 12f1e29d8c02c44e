import {
	argumentsText,
	chunkText,
	errorTypeFor,
	type RecordedLlmRequest,
	resolvedUsage,
	type ScriptedHttpError,
	type ScriptedReply,
	wireFinishReason,
} from "./scripted-response.js";

/**
 * The server-sent events of a chat-completions stream for `reply`, each a complete `data: …\n\n` frame,
 * ending with `data: [DONE]`. The usage chunk (empty `choices`) is sent only when the request asked for
 * it with `stream_options.include_usage`, as OpenAI does.
 */
export function openaiStreamFrames(
	reply: ScriptedReply,
	request: RecordedLlmRequest,
	nextCallId: () => string,
): string[] {
	const id = `chatcmpl-scripted-${Date.now().toString(36)}`;
	const created = Math.floor(Date.now() / 1000);
	const model = typeof request.body.model === "string" ? request.body.model : "scripted";
	const size = reply.chunkSize;
	const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
		`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
	const delta = (fields: Record<string, unknown>, finishReason: string | null = null) =>
		frame([{ index: 0, delta: fields, logprobs: null, finish_reason: finishReason }]);

	const frames = [delta({ role: "assistant", content: "" })];
	if (reply.thinking)
		for (const piece of chunkText(reply.thinking, size)) frames.push(delta({ reasoning_content: piece }));
	if (reply.text) for (const piece of chunkText(reply.text, size)) frames.push(delta({ content: piece }));
	(reply.toolCalls ?? []).forEach((call, index) => {
		const opening = {
			index,
			id: call.id ?? nextCallId(),
			type: "function",
			function: { name: call.name, arguments: "" },
		};
		frames.push(delta({ tool_calls: [opening] }));
		for (const piece of chunkText(argumentsText(call), size)) {
			frames.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
		}
	});
	if (reply.streamError !== undefined) {
		frames.push(`data: ${JSON.stringify({ error: { message: reply.streamError, type: "server_error" } })}\n\n`);
		return frames;
	}
	frames.push(delta({}, wireFinishReason(reply, "openai")));
	const streamOptions = request.body.stream_options as { include_usage?: boolean } | undefined;
	if (streamOptions?.include_usage) {
		const usage = resolvedUsage(reply, request);
		const promptTokens = usage.input + usage.cacheRead;
		frames.push(
			frame([], {
				usage: {
					prompt_tokens: promptTokens,
					completion_tokens: usage.output,
					total_tokens: promptTokens + usage.output,
					prompt_tokens_details: { cached_tokens: usage.cacheRead },
				},
			}),
		);
	}
	frames.push("data: [DONE]\n\n");
	return frames;
}

/** OpenAI's JSON error body. */
export function openaiErrorBody(error: ScriptedHttpError): Record<string, unknown> {
	return { error: { message: error.message, type: error.type ?? errorTypeFor(error.status), param: null, code: null } };
}
