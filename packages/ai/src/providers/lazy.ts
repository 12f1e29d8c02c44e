import { failedAssistantMessage } from "../assistant-message.js";
import { createAssistantMessageEventStream } from "../event-stream.js";
import type { ProviderStreamFunction } from "../registry.js";

/**
 * Wraps a provider whose module is loaded on first use, so importing `@gantry/ai` does not load every
 * provider SDK. Events of the loaded provider are forwarded unchanged.
 */
export function lazyProvider(load: () => Promise<ProviderStreamFunction>): ProviderStreamFunction {
	let loading: Promise<ProviderStreamFunction> | undefined;
	return (model, context, options) => {
		const events = createAssistantMessageEventStream();
		loading ??= load();
		loading.then(
			async (impl) => {
				try {
					for await (const event of impl(model, context, options)) events.push(event);
				} catch (error) {
					const message = error instanceof Error ? error.message : String(error);
					events.push({ type: "error", reason: "error", error: failedAssistantMessage(model, "error", message) });
				}
				events.end();
			},
			(error: unknown) => {
				loading = undefined;
				const message = `Could not load the ${model.api} provider: ${error instanceof Error ? error.message : String(error)}`;
				events.push({ type: "error", reason: "error", error: failedAssistantMessage(model, "error", message) });
				events.end();
			},
		);
		return events;
	};
}
