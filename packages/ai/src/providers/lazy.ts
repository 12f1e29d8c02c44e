import { failedAssistantMessage } from "../assistant-message.js";
import { createAssistantMessageEventStream } from "../event-stream.js";
import { errorText } from "../gantry-error.js";
import type { ProviderStreamFunction } from "../registry.js";

/**
 * Wraps a provider whose module is loaded on first use, so importing `@gantry/ai` loads no provider SDK
 * (they are optional peer dependencies). Events of the loaded provider are forwarded unchanged. When
 * `sdkPackage` is not installed, requests end with an error that says which package to install.
 */
export function lazyProvider(load: () => Promise<ProviderStreamFunction>, sdkPackage?: string): ProviderStreamFunction {
	let loading: Promise<ProviderStreamFunction> | undefined;
	return (model, context, options) => {
		const events = createAssistantMessageEventStream();
		loading ??= load();
		loading.then(
			async (impl) => {
				try {
					for await (const event of impl(model, context, options)) events.push(event);
				} catch (error) {
					const message = errorText(error);
					events.push({ type: "error", reason: "error", error: failedAssistantMessage(model, "error", message) });
				}
				events.end();
			},
			(error: unknown) => {
				loading = undefined;
				const message = loadFailureText(model.api, sdkPackage, error);
				events.push({ type: "error", reason: "error", error: failedAssistantMessage(model, "error", message) });
				events.end();
			},
		);
		return events;
	};
}

function loadFailureText(api: string, sdkPackage: string | undefined, error: unknown): string {
	const text = errorText(error);
	const code = (error as { code?: unknown } | undefined)?.code;
	const missing =
		sdkPackage !== undefined &&
		(code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" || /Cannot find (package|module)/.test(text)) &&
		text.includes(`'${sdkPackage}'`);
	if (missing) {
		return `The ${api} provider needs the "${sdkPackage}" package, which is not installed: add it to your project (npm install ${sdkPackage})`;
	}
	return `Could not load the ${api} provider: ${text}`;
}
