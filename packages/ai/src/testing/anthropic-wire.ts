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
 * The server-sent events of a Messages API stream for `reply`, each a complete
 * `event: …\ndata: …\n\n` frame: `message_start`, a `ping`, one `content_block_*` run per block
 * (thinking, text, then tool_use with `input_json_delta`s), `message_delta` and `message_stop`.
 */
export function anthropicStreamFrames(
	reply: ScriptedReply,
	request: RecordedLlmRequest,
	nextCallId: () => string,
	nextSignature: () => string,
): string[] {
	const model = typeof request.body.model === "string" ? request.body.model : "scripted";
	const usage = resolvedUsage(reply, request);
	const size = reply.chunkSize;
	const frame = (type: string, data: Record<string, unknown>) =>
		`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
	const frames = [
		frame("message_start", {
			message: {
				id: `msg_scripted_${Date.now().toString(36)}`,
				type: "message",
				role: "assistant",
				model,
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: {
					input_tokens: usage.input,
					output_tokens: 1,
					cache_read_input_tokens: usage.cacheRead,
					cache_creation_input_tokens: usage.cacheWrite,
				},
			},
		}),
		frame("ping", {}),
	];
	let index = 0;
	const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
		frames.push(frame("content_block_start", { index, content_block: start }));
		for (const delta of deltas) frames.push(frame("content_block_delta", { index, delta }));
		frames.push(frame("content_block_stop", { index }));
		index++;
	};
	if (reply.thinking) {
		const deltas: Record<string, unknown>[] = chunkText(reply.thinking, size).map((thinking) => ({
			type: "thinking_delta",
			thinking,
		}));
		deltas.push({ type: "signature_delta", signature: reply.thinkingSignature ?? nextSignature() });
		block({ type: "thinking", thinking: "", signature: "" }, deltas);
	}
	if (reply.text) {
		block(
			{ type: "text", text: "" },
			chunkText(reply.text, size).map((text) => ({ type: "text_delta", text })),
		);
	}
	for (const call of reply.toolCalls ?? []) {
		block(
			{ type: "tool_use", id: call.id ?? nextCallId(), name: call.name, input: {} },
			chunkText(argumentsText(call), size).map((partial_json) => ({ type: "input_json_delta", partial_json })),
		);
	}
	if (reply.streamError !== undefined) {
		frames.push(frame("error", { error: { type: "overloaded_error", message: reply.streamError } }));
		return frames;
	}
	frames.push(
		frame("message_delta", {
			delta: { stop_reason: wireFinishReason(reply, "anthropic"), stop_sequence: null },
			usage: { output_tokens: usage.output },
		}),
	);
	frames.push(frame("message_stop", {}));
	return frames;
}

/** Anthropic's JSON error body. */
export function anthropicErrorBody(error: ScriptedHttpError): Record<string, unknown> {
	return { type: "error", error: { type: error.type ?? errorTypeFor(error.status), message: error.message } };
}
