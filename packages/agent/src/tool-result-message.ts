import type { ToolResultMessage } from "@gantry/ai";
import type { AgentToolCallOutcome } from "./types.js";

/**
 * The message that answers a tool call in the transcript. `structuredContent` stays on the outcome (it
 * is for programmatic callers) and never reaches the model; `usage`, `nestedCalls`, `durationMs` and
 * `blocked` appear only when the outcome has them.
 */
export function createToolResultMessage(outcome: AgentToolCallOutcome): ToolResultMessage {
	const { toolCall, result } = outcome;
	const message: ToolResultMessage = {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: result.content,
		details: result.details,
		isError: outcome.isError,
		timestamp: Date.now(),
	};
	if (result.usage !== undefined) message.usage = result.usage;
	if (result.nestedCalls !== undefined) message.nestedCalls = result.nestedCalls;
	if (outcome.durationMs !== undefined) message.durationMs = outcome.durationMs;
	if (outcome.blocked) message.blocked = true;
	return message;
}
