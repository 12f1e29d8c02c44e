import type { AgentMessage, AgentStreamOptions } from "@gantry/agent";
import { errorText, type Model, stream, type Usage, withoutUndefined } from "@gantry/ai";
import { SUMMARY_SYSTEM_PROMPT, summaryRequestMessage } from "./summary-prompt.js";

/** How the session's summary requests reach the model: its own stream function, key and options. */
export interface SummaryRequester {
	streamFn?: typeof stream | undefined;
	apiKey?: string | undefined;
	streamOptions?: AgentStreamOptions | undefined;
}

/** What a summary request came back with. */
export type SummaryOutcome =
	| { ok: true; summary: string; usage: Usage }
	| { ok: false; error: string; aborted: boolean; usage?: Usage };

/** The most the summary may take: enough for a page of notes, within the model's own limit. */
const SUMMARY_MAX_TOKENS = 8_192;

/**
 * Asks `model` for a summary of `messages` (a separate request: the summary prompt and the conversation as
 * text, no tools). Never rejects: a failed, aborted or empty answer is `ok: false` with the reason.
 */
export async function requestSummary(
	requester: SummaryRequester,
	model: Model,
	input: { messages: readonly AgentMessage[]; previousSummary?: string | undefined; instructions?: string | undefined },
	signal?: AbortSignal,
): Promise<SummaryOutcome> {
	// The conversation may take about half the window; the rest is the prompt and the answer.
	const maxCharacters = Math.max(8_000, Math.floor(model.contextWindow * 0.5) * 4);
	const message = summaryRequestMessage({ ...input, maxCharacters });
	try {
		const response = (requester.streamFn ?? stream)(
			model,
			{ systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [message] },
			withoutUndefined({
				...requester.streamOptions,
				apiKey: requester.apiKey,
				signal,
				maxTokens: Math.min(model.maxTokens > 0 ? model.maxTokens : SUMMARY_MAX_TOKENS, SUMMARY_MAX_TOKENS),
			}),
		);
		const answer = await response.result();
		if (answer.stopReason === "error" || answer.stopReason === "aborted") {
			return {
				ok: false,
				error: answer.errorMessage ?? `the summary request ended with ${answer.stopReason}`,
				aborted: answer.stopReason === "aborted",
				usage: answer.usage,
			};
		}
		const summary = answer.content
			.filter((block) => block.type === "text")
			.map((block) => block.text)
			.join("")
			.trim();
		if (summary === "")
			return { ok: false, error: "the model answered the summary request with no text", aborted: false };
		return { ok: true, summary, usage: answer.usage };
	} catch (error) {
		return {
			ok: false,
			error: errorText(error),
			aborted: signal?.aborted === true,
		};
	}
}
