import { deprecationWarning, reportProviderWarning } from "../provider-warnings.js";

/** The Anthropic client's deprecation line: `The model 'x' is deprecated and will reach end-of-life on <date>`. */
const DEPRECATED = /^The model '([^']+)' is deprecated and will reach end-of-life on ([^\n]+)/;

/**
 * Runs `call` (a client's synchronous request set-up) with `console.warn` caught: the Anthropic client
 * warns there about a deprecated model on every request and every retry. What it says is reported once
 * per process as a provider warning instead (see `onProviderWarning`), its deprecation in Gantry's words.
 */
export function withSdkWarningsCaught<T>(call: () => T): T {
	const original = console.warn;
	const caught: string[] = [];
	console.warn = (...parts: unknown[]) => {
		caught.push(parts.map((part) => (typeof part === "string" ? part : String(part))).join(" "));
	};
	try {
		return call();
	} finally {
		console.warn = original;
		for (const text of caught) reportSdkWarning(text);
	}
}

function reportSdkWarning(text: string): void {
	const [, model, date] = DEPRECATED.exec(text) ?? [];
	if (model !== undefined && date !== undefined) {
		reportProviderWarning(deprecationWarning(model, date.trim()));
		return;
	}
	const line = text.split("\n")[0] ?? text;
	reportProviderWarning({ key: `sdk:${line}`, message: line });
}
