import OpenAI from "openai";
import type { Model, StreamOptions } from "../types.js";
import type { RequestAttempt } from "./request-runner.js";
import type { SdkLogCapture } from "./sdk-log.js";

/**
 * The official client for one request attempt of the OpenAI providers: Gantry retries on its own
 * (`maxRetries: 0`) and watches for a stalled server through the attempt's `fetch`; what the client
 * would log goes to `log` (kept, never printed).
 */
export function createOpenAIClient(
	model: Model,
	options: StreamOptions,
	attempt: RequestAttempt,
	log: SdkLogCapture,
): OpenAI {
	log.reset();
	return new OpenAI({
		apiKey: attempt.apiKey,
		baseURL: model.baseUrl,
		maxRetries: 0,
		fetch: attempt.fetch,
		defaultHeaders: options.headers,
		// Failures reach the caller as the message's error; the client must not print its own dump, but
		// what it would print about a chunk it cannot parse is kept to quote in that error.
		logLevel: "error",
		logger: log.logger,
	});
}
