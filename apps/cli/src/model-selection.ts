import {
	createOpenAICompatibleModel,
	DEFAULT_MODEL_IDS,
	errorText,
	getApiKeyVariable,
	getModel,
	getModels,
	type Model,
} from "@gantry/ai";
import { CliError, usageError } from "./errors.js";

/** The model options of the command line. */
export interface ModelChoice {
	provider?: string;
	model?: string;
	baseUrl?: string;
	apiKey?: string;
}

/** The model to use, its key (undefined for servers that need none), and the variable the key came from. */
export interface SelectedModel {
	model: Model;
	apiKey?: string;
	/** Set when the endpoint needs a key and none was found: the one-line error to show. */
	missingKey?: string;
}

/** Each provider's default model: the catalogue's (`DEFAULT_MODEL_IDS` of `@gantry/ai`). */
const DEFAULT_MODELS: Record<string, string> = DEFAULT_MODEL_IDS;

function knownProviders(): string[] {
	return [...new Set(getModels().map((model) => model.provider))];
}

/**
 * Picks the model from `--provider`, `--model`, `--base-url` and `--api-key`:
 * - with `--base-url`, any `--model` id is accepted and the endpoint speaks OpenAI chat completions,
 *   unless `--provider anthropic` (then the Anthropic Messages API); no key is required;
 * - without it, the model comes from the catalogue: `--model` alone finds its provider, `--provider`
 *   alone takes that provider's default, neither takes OpenAI's default (Anthropic's when only
 *   `ANTHROPIC_API_KEY` is set), and a key is required.
 *
 * Throws a `usage` `CliError` for an unknown provider or model. A missing key is not thrown but returned
 * as `missingKey`, so commands that never call the model (`gantry tools`) still work.
 */
export function selectModel(choice: ModelChoice, env: NodeJS.ProcessEnv = process.env): SelectedModel {
	if (choice.baseUrl !== undefined) return selectCustomEndpoint(choice, env);
	const openaiBaseUrl = nonEmpty(env.OPENAI_BASE_URL);
	const otherCatalogue = getModels().some((model) => model.id === choice.model && model.provider !== "openai");
	if (openaiBaseUrl !== undefined && (choice.provider ?? "openai") === "openai" && !otherCatalogue) {
		return selectOpenAIBaseUrl(choice, openaiBaseUrl, env);
	}
	const provider = choice.provider ?? inferProvider(choice.model, env);
	if (!knownProviders().includes(provider)) {
		throw usageError(
			`Unknown provider "${provider}" (known: ${knownProviders().join(", ")}; for other servers pass --base-url)`,
		);
	}
	const id = choice.model ?? DEFAULT_MODELS[provider];
	if (id === undefined) throw usageError(`Provider "${provider}" has no default model; pass --model`);
	let model: Model;
	try {
		model = getModel(provider, id);
	} catch (error) {
		throw usageError(errorText(error));
	}
	const variable = getApiKeyVariable(provider);
	const apiKey = choice.apiKey ?? (variable ? nonEmpty(env[variable]) : undefined);
	if (apiKey !== undefined) return { model, apiKey };
	return {
		model,
		missingKey: `No API key for ${provider}: set ${variable ?? "the provider's key variable"} or pass --api-key`,
	};
}

function selectCustomEndpoint(choice: ModelChoice, env: NodeJS.ProcessEnv): SelectedModel {
	const baseUrl = choice.baseUrl as string;
	if (choice.model === undefined) {
		throw usageError(`--base-url needs --model <id> (the id the server knows, e.g. qwen3:8b)`);
	}
	const provider = choice.provider ?? "openai-compatible";
	const variable = getApiKeyVariable(provider);
	const apiKey = choice.apiKey ?? (variable ? nonEmpty(env[variable]) : undefined);
	if (provider === "anthropic") {
		// The default model's limits; an unknown id is asked to think the long-standing way (a budget).
		const { retiresOn: _retires, compat, ...template } = getModel("anthropic", DEFAULT_MODEL_IDS.anthropic);
		const { anthropicThinking: _thinking, ...keptCompat } = compat ?? {};
		const model: Model = {
			...template,
			compat: keptCompat,
			id: choice.model,
			name: choice.model,
			baseUrl: baseUrl.replace(/\/v1\/?$/, ""),
		};
		return apiKey === undefined ? { model } : { model, apiKey };
	}
	const model = createOpenAICompatibleModel({ baseUrl, id: choice.model, provider });
	return apiKey === undefined ? { model } : { model, apiKey };
}

/**
 * `OPENAI_BASE_URL` (as the OpenAI client reads it) when no `--base-url` is given: a catalogue OpenAI model
 * (the default one without `--model`) served from that URL, or any other id as an OpenAI-compatible
 * endpoint. The key is taken when set, not required (local servers and proxies often need none).
 */
function selectOpenAIBaseUrl(choice: ModelChoice, baseUrl: string, env: NodeJS.ProcessEnv): SelectedModel {
	if (!/^https?:\/\/[^/]/.test(baseUrl)) {
		throw usageError(`OPENAI_BASE_URL must be an http(s) URL, e.g. http://127.0.0.1:11434/v1 (got "${baseUrl}")`);
	}
	const id = choice.model ?? DEFAULT_MODEL_IDS.openai;
	const known = getModels("openai").find((model) => model.id === id);
	if (known === undefined) return selectCustomEndpoint({ ...choice, model: id, baseUrl, provider: "openai" }, env);
	const apiKey = choice.apiKey ?? nonEmpty(env.OPENAI_API_KEY);
	const model: Model = { ...known, baseUrl };
	return apiKey === undefined ? { model } : { model, apiKey };
}

/** The provider of a catalogue model id; without an id, the provider whose key is set (OpenAI first). */
function inferProvider(id: string | undefined, env: NodeJS.ProcessEnv): string {
	if (id !== undefined) {
		const found = getModels().find((model) => model.id === id);
		if (!found) {
			const known = getModels()
				.map((model) => model.id)
				.join(", ");
			throw usageError(`Unknown model "${id}" (known: ${known}; for other models pass --base-url)`);
		}
		return found.provider;
	}
	if (nonEmpty(env.OPENAI_API_KEY) === undefined && nonEmpty(env.ANTHROPIC_API_KEY) !== undefined) return "anthropic";
	return "openai";
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value === "" ? undefined : value;
}

/** Throws the missing-key error of a selection, if any (`missing_api_key`, exit code 1). */
export function requireApiKey(selected: SelectedModel): void {
	if (selected.missingKey !== undefined) throw new CliError("missing_api_key", selected.missingKey);
}
