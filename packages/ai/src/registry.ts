import { failedAssistantMessage } from "./assistant-message.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "./event-stream.js";
import { errorText } from "./gantry-error.js";
import type { AssistantMessage, Context, Model, StreamOptions } from "./types.js";

/**
 * A provider implementation: turns one request into a stream of assistant-message events.
 * It must not throw or reject for request, network or model failures: it ends the stream with an
 * `error` event whose message has `stopReason: "error"` (with `errorMessage`) or `"aborted"`.
 */
export type ProviderStreamFunction = (
	model: Model,
	context: Context,
	options?: StreamOptions,
) => AssistantMessageEventStream;

const providers = new Map<string, ProviderStreamFunction>();

/** Registers (or replaces) the implementation `stream()` uses for models whose `api` is `api`. */
export function registerProvider(api: string, impl: ProviderStreamFunction): void {
	providers.set(api, impl);
}

/** Removes a registered provider; returns whether there was one. */
export function unregisterProvider(api: string): boolean {
	return providers.delete(api);
}

export function getProvider(api: string): ProviderStreamFunction | undefined {
	return providers.get(api);
}

/**
 * Streams one model request through the provider registered for `model.api`. Never throws: an unknown
 * api or a provider that throws ends the stream with an error message.
 */
export function stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
	const impl = providers.get(model.api);
	if (!impl) {
		const known = [...providers.keys()].join(", ");
		return failedStream(model, `No provider registered for api "${model.api}" (registered: ${known})`);
	}
	try {
		return impl(model, context, options);
	} catch (error) {
		return failedStream(model, errorText(error));
	}
}

/** Awaits `stream()` and returns its final assistant message. Never rejects for model failures. */
export function complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

function failedStream(model: Model, errorMessage: string): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	events.push({ type: "error", reason: "error", error: failedAssistantMessage(model, "error", errorMessage) });
	events.end();
	return events;
}
