import type { Model } from "./types.js";

/** Environment variables that hold the API key of the providers Gantry knows. */
const API_KEY_VARIABLES: Record<string, string> = {
	openai: "OPENAI_API_KEY",
	anthropic: "ANTHROPIC_API_KEY",
	openrouter: "OPENROUTER_API_KEY",
};

/** Hosts whose requests cannot work without a real key. */
const OFFICIAL_HOSTS: Record<string, string> = {
	openai: "api.openai.com",
	anthropic: "api.anthropic.com",
	openrouter: "openrouter.ai",
};

/** Key sent to OpenAI-compatible endpoints that need none (local servers ignore it). */
export const PLACEHOLDER_API_KEY = "none";

/** The environment variable that holds `provider`'s API key (`"OPENAI_API_KEY"`…), if Gantry knows one. */
export function getApiKeyVariable(provider: string): string | undefined {
	return API_KEY_VARIABLES[provider];
}

/**
 * The API key for `provider`: `options.apiKey` when given, else the provider's environment variable
 * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `OPENROUTER_API_KEY`), else `undefined`. Never throws.
 *
 * @param options.env where to read variables from. Default: `process.env`.
 */
export function getApiKey(
	provider: string,
	options: { apiKey?: string; env?: Record<string, string | undefined> } = {},
): string | undefined {
	if (options.apiKey) return options.apiKey;
	const variable = API_KEY_VARIABLES[provider];
	if (!variable) return undefined;
	const value = (options.env ?? process.env)[variable];
	return value ? value : undefined;
}

/**
 * The key a provider sends for `model`, or the error message that ends the request. A key is required
 * for the official endpoints of known providers; any other endpoint (Ollama, vLLM, llama.cpp, including
 * `provider: "openai"` with a local `baseUrl`) gets a placeholder when none is configured.
 */
export function resolveApiKey(model: Model, options: { apiKey?: string } = {}): { apiKey: string } | { error: string } {
	const apiKey = getApiKey(model.provider, options);
	if (apiKey) return { apiKey };
	if (!isOfficialEndpoint(model)) return { apiKey: PLACEHOLDER_API_KEY };
	const variable = API_KEY_VARIABLES[model.provider];
	return {
		error: `No API key for provider "${model.provider}": set the ${variable} environment variable or pass options.apiKey`,
	};
}

function isOfficialEndpoint(model: Model): boolean {
	const host = OFFICIAL_HOSTS[model.provider];
	if (!host) return false;
	if (!model.baseUrl) return true;
	try {
		return new URL(model.baseUrl).hostname === host;
	} catch {
		return true;
	}
}
