import type { Model } from "@gantry/ai";

/**
 * A failed model request as one line for the person: the provider's message (on one line), what it
 * means when the cause is a common one, and how to fix it. The retries the request made are in the
 * message already (`retried 2 times, then out of retries`).
 */
export function describeModelError(message: string | undefined, model: Model): string {
	const text = (message ?? "the model request failed").replace(/\s*\n\s*/g, " ").trim();
	const status = /^(\d{3})\b/.exec(text)?.[1];
	if (status === undefined && /\bJSON\b/.test(text)) return `the server sent invalid data: ${text}`;
	const hint = hintFor(text, status, model);
	return hint === undefined ? text : `${text} — ${hint}`;
}

function hintFor(text: string, status: string | undefined, model: Model): string | undefined {
	const baseUrl = model.baseUrl;
	if (/sent nothing for/.test(text)) {
		return "raise the limit with --timeout (e.g. --timeout 5m) or GANTRY_IDLE_TIMEOUT_MS, or check the server";
	}
	if (status === "404") {
		if (model.api === "openai-completions" && baseUrl !== undefined && !/\/v1\/?$/.test(baseUrl)) {
			return `the base URL usually ends in /v1: try --base-url ${baseUrl.replace(/\/+$/, "")}/v1`;
		}
		return `check the model id "${model.id}" and the base URL ${baseUrl ?? ""}`.trim();
	}
	if (status === "401" || status === "403") {
		return "check the API key (--api-key, OPENAI_API_KEY or ANTHROPIC_API_KEY)";
	}
	if (/ECONNREFUSED|Connection error|fetch failed|ENOTFOUND/i.test(text)) {
		return `is the server running and reachable at ${baseUrl ?? "its address"}?`;
	}
	return undefined;
}
