import OpenAI from "openai";
import type { Model, StreamOptions } from "../types.js";
import type { RequestAttempt } from "./request-runner.js";

/**
 * The official client for one request attempt of the OpenAI providers: Gantry retries on its own
 * (`maxRetries: 0`) and watches for a stalled server through the attempt's `fetch`.
 */
export function createOpenAIClient(model: Model, options: StreamOptions, attempt: RequestAttempt): OpenAI {
	return new OpenAI({
		apiKey: attempt.apiKey,
		baseURL: model.baseUrl,
		maxRetries: 0,
		fetch: attempt.fetch,
		defaultHeaders: options.headers,
		// Failures reach the caller as the message's error; the client must not print its own dump.
		logLevel: "off",
	});
}
