import {
	argumentsText,
	chunkText,
	type RecordedLlmRequest,
	resolvedUsage,
	type ScriptedReply,
} from "./scripted-response.js";

/**
 * The server-sent events of a Responses API stream for `reply` (`event: <type>` + `data: …`, no
 * `[DONE]`): `response.created`, a reasoning item (summary deltas and an encrypted content) when the
 * reply has thinking, a message item for the text, one function-call item per tool call (arguments as
 * deltas; a `custom` call is a custom-tool-call item with its input as deltas), then `response.completed`, or `response.incomplete` when `finishReason` is `length` /
 * `max_output_tokens`; `streamError` sends an `error` event and `response.failed` instead.
 */
export function responsesStreamFrames(
	reply: ScriptedReply,
	request: RecordedLlmRequest,
	nextCallId: () => string,
	nextSignature: () => string,
): string[] {
	const model = typeof request.body.model === "string" ? request.body.model : "scripted";
	const id = `resp_scripted_${Date.now().toString(36)}`;
	const size = reply.chunkSize;
	let sequence = 0;
	const frames: string[] = [];
	const send = (type: string, data: Record<string, unknown>) =>
		frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
	const envelope = (status: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
		id,
		object: "response",
		created_at: Math.floor(Date.now() / 1000),
		status,
		model,
		output,
		...extra,
	});
	send("response.created", { response: envelope("in_progress", []) });
	const output: Record<string, unknown>[] = [];
	const item = (added: Record<string, unknown>, stream: (index: number) => void, done: Record<string, unknown>) => {
		const index = output.length;
		send("response.output_item.added", { output_index: index, item: added });
		stream(index);
		send("response.output_item.done", { output_index: index, item: done });
		output.push(done);
	};
	if (reply.thinking) {
		const itemId = `rs_scripted_${output.length}`;
		const summary = [{ type: "summary_text", text: reply.thinking }];
		const encrypted = reply.thinkingSignature ?? `enc-${nextSignature()}`;
		item(
			{ id: itemId, type: "reasoning", summary: [], encrypted_content: encrypted },
			(index) => {
				send("response.reasoning_summary_part.added", {
					item_id: itemId,
					output_index: index,
					summary_index: 0,
					part: { type: "summary_text", text: "" },
				});
				for (const delta of chunkText(reply.thinking ?? "", size)) {
					send("response.reasoning_summary_text.delta", {
						item_id: itemId,
						output_index: index,
						summary_index: 0,
						delta,
					});
				}
				send("response.reasoning_summary_part.done", {
					item_id: itemId,
					output_index: index,
					summary_index: 0,
					part: summary[0],
				});
			},
			{ id: itemId, type: "reasoning", summary, encrypted_content: encrypted },
		);
	}
	if (reply.text) {
		const itemId = `msg_scripted_${output.length}`;
		const part = { type: "output_text", text: reply.text, annotations: [] };
		item(
			{ id: itemId, type: "message", role: "assistant", status: "in_progress", content: [] },
			(index) => {
				send("response.content_part.added", {
					item_id: itemId,
					output_index: index,
					content_index: 0,
					part: { ...part, text: "" },
				});
				for (const delta of chunkText(reply.text ?? "", size)) {
					send("response.output_text.delta", {
						item_id: itemId,
						output_index: index,
						content_index: 0,
						delta,
						logprobs: [],
					});
				}
				send("response.content_part.done", { item_id: itemId, output_index: index, content_index: 0, part });
			},
			{ id: itemId, type: "message", role: "assistant", status: "completed", content: [part] },
		);
	}
	for (const call of reply.toolCalls ?? []) {
		if (call.custom) {
			const itemId = `ctc_scripted_${output.length}`;
			const input = argumentsText(call);
			const fields = { id: itemId, type: "custom_tool_call", call_id: call.id ?? nextCallId(), name: call.name };
			item(
				{ ...fields, input: "", status: "in_progress" },
				(index) => {
					for (const delta of chunkText(input, size)) {
						send("response.custom_tool_call_input.delta", { item_id: itemId, output_index: index, delta });
					}
					send("response.custom_tool_call_input.done", { item_id: itemId, output_index: index, input });
				},
				{ ...fields, input, status: "completed" },
			);
			continue;
		}
		const itemId = `fc_scripted_${output.length}`;
		const callId = call.id ?? nextCallId();
		const args = argumentsText(call);
		const fields = { id: itemId, type: "function_call", call_id: callId, name: call.name };
		item(
			{ ...fields, arguments: "", status: "in_progress" },
			(index) => {
				for (const delta of chunkText(args, size)) {
					send("response.function_call_arguments.delta", { item_id: itemId, output_index: index, delta });
				}
				send("response.function_call_arguments.done", { item_id: itemId, output_index: index, arguments: args });
			},
			{ ...fields, arguments: args, status: "completed" },
		);
	}
	if (reply.streamError !== undefined) {
		send("error", { error: { type: "server_error", code: "server_error", message: reply.streamError, param: null } });
		send("response.failed", {
			response: envelope("failed", output, { error: { code: "server_error", message: reply.streamError } }),
		});
		return frames;
	}
	const tokens = resolvedUsage(reply, request);
	const usage = {
		input_tokens: tokens.input + tokens.cacheRead,
		input_tokens_details: { cached_tokens: tokens.cacheRead },
		output_tokens: tokens.output,
		output_tokens_details: { reasoning_tokens: reply.thinking ? Math.ceil(reply.thinking.length / 4) : 0 },
		total_tokens: tokens.input + tokens.cacheRead + tokens.output,
	};
	const cut = reply.finishReason === "length" || reply.finishReason === "max_output_tokens";
	if (cut) {
		const details = { incomplete_details: { reason: "max_output_tokens" }, usage };
		send("response.incomplete", { response: envelope("incomplete", output, details) });
	} else send("response.completed", { response: envelope("completed", output, { usage }) });
	return frames;
}
