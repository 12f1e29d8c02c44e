import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from "../types.js";

/** Stands in for an image when the model does not accept images. */
export const IMAGE_OMITTED_TEXT = "(image omitted: this model does not accept images)";

/** Text of the result that stands in for a tool call whose result is missing from the transcript. */
export const MISSING_TOOL_RESULT_TEXT = "No result provided (the tool call was interrupted).";

/**
 * Prepares a transcript for a provider, which rejects requests where tool calls and results do not
 * pair up:
 * - failed (`"error"`) and aborted assistant messages are left out, with their tool calls;
 * - a tool result whose call is not in the preceding assistant message is left out;
 * - a tool call without a result gets an error result before the next message.
 */
export function normalizeTranscript(messages: readonly Message[]): Message[] {
	const result: Message[] = [];
	let pending: ToolCall[] = [];

	const flushPending = (timestamp: number) => {
		for (const call of pending) result.push(missingResult(call, timestamp));
		pending = [];
	};

	for (const message of messages) {
		if (message.role === "toolResult") {
			const index = pending.findIndex((call) => call.id === message.toolCallId);
			if (index === -1) continue;
			pending.splice(index, 1);
			result.push(message);
			continue;
		}
		flushPending(message.timestamp);
		if (message.role === "assistant") {
			if (message.stopReason === "error" || message.stopReason === "aborted") continue;
			pending = toolCallsOf(message);
		}
		result.push(message);
	}
	flushPending(Date.now());
	return result;
}

function toolCallsOf(message: AssistantMessage): ToolCall[] {
	return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}

function missingResult(call: ToolCall, timestamp: number): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
		isError: true,
		timestamp,
	};
}
