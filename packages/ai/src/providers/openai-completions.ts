import { failedAssistantMessage } from "../assistant-message.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import type { Context, Model, StreamOptions } from "../types.js";

// Placeholder until the provider lands.
export function streamOpenAICompletions(model: Model, _context: Context, _options?: StreamOptions): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	events.push({ type: "error", reason: "error", error: failedAssistantMessage(model, "error", "not implemented") });
	events.end();
	return events;
}
