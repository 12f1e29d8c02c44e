import { resolveApiKey } from "../api-keys.js";
import type { Model, StopReason, StreamOptions, Usage } from "../types.js";
import { completeUsage } from "../usage.js";
import { ABORTED_MESSAGE, failureText } from "./error-text.js";
import { DEFAULT_IDLE_TIMEOUT_MS, IdleWatch } from "./idle-watch.js";
import type { AssistantMessageBuilder } from "./message-builder.js";
import { classifyFailure, type FailureKind, retryDelayMs } from "./retry-policy.js";

/** What one attempt gets: the signal and fetch to hand to the SDK, and the resolved key. */
export type RequestAttempt = {
	signal: AbortSignal;
	fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
	apiKey: string;
};

/** How an attempt that did not throw ended. */
export type AttemptOutcome = { stopReason: Extract<StopReason, "stop" | "length" | "toolUse"> } | { error: string };

export type RequestRun = {
	model: Model;
	options: StreamOptions;
	builder: AssistantMessageBuilder;
	/** Sends the request once and streams it into the builder; throws what the SDK throws. */
	attempt: (attempt: RequestAttempt) => Promise<AttemptOutcome>;
	/** The usage reported so far. */
	usage: () => Usage | undefined;
	/** The error's text for the final message. Default: the message and its causes. */
	describe?: (error: unknown) => string;
};

/**
 * Runs a provider request to its one final event: resolves the key, watches for an idle server
 * (`idleTimeoutMs`), retries retryable failures that come before any content (`maxRetries`, backoff from
 * `retryBaseDelayMs`, `retry-after` honoured) and turns every failure into `"error"` or `"aborted"`.
 * HTTP failures end with a note saying whether and how often they were retried.
 */
export async function runRequest(run: RequestRun): Promise<void> {
	const { model, options, builder } = run;
	const usage = () => run.usage();
	const key = resolveApiKey(model, options);
	if ("error" in key) return builder.fail("error", key.error);
	const watch = new IdleWatch(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, options.signal);
	const maxRetries = Math.max(0, options.maxRetries ?? 2);
	try {
		for (let retry = 0; ; retry++) {
			try {
				const outcome = await run.attempt({ signal: watch.signal, fetch: watch.fetch, apiKey: key.apiKey });
				if (options.signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage());
				if (watch.timedOut) return builder.fail("error", watch.message, usage());
				if ("error" in outcome) return builder.fail("error", outcome.error, usage());
				return builder.finish(outcome.stopReason, usage() ?? completeUsage());
			} catch (error) {
				watch.disarm();
				if (options.signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage());
				if (watch.timedOut) return builder.fail("error", watch.message, usage());
				const failure = classifyFailure(error);
				const text = (run.describe ?? failureText)(error);
				const blocked = retryBlocker(failure, builder.hasContent, retry, maxRetries);
				const delay = blocked ? undefined : retryDelayMs(retry, failure.headers, options.retryBaseDelayMs ?? 1000);
				if (delay === undefined) {
					const reason = blocked ?? "the server asked to wait longer than 60 s";
					return builder.fail("error", `${text}${retryNote(failure, retry, reason)}`, usage());
				}
				await sleep(delay, watch.signal);
				if (options.signal?.aborted) return builder.fail("aborted", ABORTED_MESSAGE, usage());
			}
		}
	} finally {
		watch.disarm();
	}
}

/** Why a failure is not retried, or undefined when it may be. */
function retryBlocker(
	failure: FailureKind,
	hasContent: boolean,
	retry: number,
	maxRetries: number,
): string | undefined {
	if (!failure.retryable) return "not retryable";
	if (hasContent) return "content had already streamed";
	if (retry >= maxRetries) return maxRetries === 0 ? "maxRetries is 0" : "out of retries";
	return undefined;
}

/** HTTP failures always say whether they were retried; other failures only when they were. */
function retryNote(failure: FailureKind, retries: number, reason: string): string {
	if (retries > 0) return ` (retried ${retries} ${retries === 1 ? "time" : "times"}, then ${reason})`;
	if (failure.status === undefined) return "";
	return ` (not retried: ${reason})`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const done = () => {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal.addEventListener("abort", done, { once: true });
	});
}
