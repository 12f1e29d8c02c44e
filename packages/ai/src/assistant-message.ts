import type { AssistantMessage, Model, StopReason } from "./types.js";
import { emptyUsage } from "./usage.js";

/** A new, empty assistant message attributed to `model`. */
export function createAssistantMessage(model: Model): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		stopReason: "stop",
		usage: emptyUsage(),
		api: model.api,
		provider: model.provider,
		model: model.id,
		timestamp: Date.now(),
	};
}

/** A finished assistant message that reports a failure as a value (never a thrown error). */
export function failedAssistantMessage(
	model: Model,
	reason: Extract<StopReason, "error" | "aborted">,
	errorMessage: string,
	partial?: AssistantMessage,
): AssistantMessage {
	const message = partial ? { ...partial, content: [...partial.content] } : createAssistantMessage(model);
	message.stopReason = reason;
	message.errorMessage = errorMessage;
	return message;
}
