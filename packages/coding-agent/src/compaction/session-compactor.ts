import type { AgentMessage, AgentState } from "@gantry/agent";
import { streamOptionsFor } from "../session/session-basics.js";
import type { AgentSessionOptions } from "../session/session-options.js";
import type { LoadedTranscript, Transcript } from "../session/transcript.js";
import { ContextCompactor } from "./context-compactor.js";
import { requestSummary } from "./summary-request.js";
import type { CompactionEvent } from "./types.js";

export { ContextCompactor } from "./context-compactor.js";
export type { CompactionEvent, CompactionResult } from "./types.js";

/**
 * The compactor of a session: summaries asked of the session's current model through its own stream
 * function, key and request options; entries written to its transcript; the state a resumed transcript
 * left restored.
 */
export function createSessionCompactor(
	options: AgentSessionOptions,
	sessionId: string,
	transcript: { transcript: Transcript; loaded?: LoadedTranscript } | undefined,
	state: () => AgentState,
	emit: (event: CompactionEvent) => Promise<void>,
): ContextCompactor {
	const streamOptions = streamOptionsFor(options, sessionId);
	const requester = { streamFn: options.streamFn, apiKey: options.apiKey, streamOptions };
	const loaded = transcript?.loaded;
	return new ContextCompactor(
		{
			model: () => state().model,
			fixedCharacters: () => {
				const { systemPrompt, tools } = state();
				const declared = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
				return systemPrompt.length + JSON.stringify(declared).length;
			},
			summarize: (messages, previousSummary, instructions, signal) =>
				requestSummary(requester, state().model, { messages, previousSummary, instructions }, signal),
			record: (entry) => transcript?.transcript.append(entry),
			emit,
		},
		options.compaction,
		loaded?.compaction,
		(loaded?.messages ?? []) as AgentMessage[],
	);
}

/** Whether a session event is one of compaction's (they go to session listeners, not to extensions). */
export function isCompactionEvent(event: { type: string }): event is CompactionEvent {
	return event.type === "compaction_start" || event.type === "compaction_end" || event.type === "tool_results_trim";
}
