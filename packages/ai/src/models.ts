import { GantryAiError } from "./errors.js";
import type { ImageResizeLimits, Model } from "./types.js";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** OpenAI scales high-detail images to fit 2048 × 2048; 20 MB is its per-image upload limit. */
const OPENAI_IMAGE_LIMITS: ImageResizeLimits = { maxWidth: 2048, maxHeight: 2048, maxBytes: 20_000_000 };
/** Anthropic downscales anything beyond 1568 px on the long edge and rejects images over 5 MB. */
const ANTHROPIC_IMAGE_LIMITS: ImageResizeLimits = { maxWidth: 1568, maxHeight: 1568, maxBytes: 4_500_000 };

function openaiModel(id: string, name: string, contextWindow: number, maxTokens: number): Model {
	return {
		id,
		name,
		api: "openai-completions",
		provider: "openai",
		baseUrl: OPENAI_BASE_URL,
		input: ["text", "image"],
		contextWindow,
		maxTokens,
		inputLimits: { images: { resize: OPENAI_IMAGE_LIMITS } },
		compat: { supportsStrictMode: true, supportsImagesInToolResults: false },
	};
}

function anthropicModel(id: string, name: string, maxTokens: number): Model {
	return {
		id,
		name,
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl: ANTHROPIC_BASE_URL,
		input: ["text", "image"],
		contextWindow: 200_000,
		maxTokens,
		inputLimits: { images: { resize: ANTHROPIC_IMAGE_LIMITS } },
		compat: { supportsStrictMode: false, supportsImagesInToolResults: true },
	};
}

const CATALOGUE: readonly Model[] = [
	openaiModel("gpt-4.1", "GPT-4.1", 1_047_576, 32_768),
	openaiModel("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768),
	openaiModel("gpt-4o", "GPT-4o", 128_000, 16_384),
	openaiModel("o4-mini", "o4-mini", 200_000, 100_000),
	anthropicModel("claude-sonnet-4-5", "Claude Sonnet 4.5", 64_000),
	anthropicModel("claude-opus-4-1", "Claude Opus 4.1", 32_000),
	anthropicModel("claude-haiku-4-5", "Claude Haiku 4.5", 64_000),
];

/**
 * The built-in models, optionally only those of one provider (`"openai"`, `"anthropic"`). Each call
 * returns fresh copies, so changing one does not change the catalogue.
 */
export function getModels(provider?: string): Model[] {
	return CATALOGUE.filter((model) => provider === undefined || model.provider === provider).map((model) =>
		structuredClone(model),
	);
}

/**
 * A copy of the built-in model `id` of `provider`.
 *
 * @throws GantryAiError (code `"unknown_model"`) when the catalogue has no such model; the message lists
 * the known ids. For any other endpoint use {@link createOpenAICompatibleModel}.
 * @example
 * const model = getModel("anthropic", "claude-sonnet-4-5");
 */
export function getModel(provider: string, id: string): Model {
	const model = CATALOGUE.find((entry) => entry.provider === provider && entry.id === id);
	if (model) return structuredClone(model);
	const known = getModels(provider).map((entry) => entry.id);
	const providers = [...new Set(CATALOGUE.map((entry) => entry.provider))].join(", ");
	const hint = known.length
		? `known ${provider} models: ${known.join(", ")}`
		: `unknown provider (known providers: ${providers})`;
	throw new GantryAiError("unknown_model", `Unknown model "${id}" for provider "${provider}"; ${hint}`);
}

/** Describes an endpoint that speaks OpenAI chat completions (Ollama, vLLM, llama.cpp server, OpenRouter…). */
export type OpenAICompatibleModelOptions = {
	/** The endpoint's base URL including its version path, e.g. `http://127.0.0.1:11434/v1` for Ollama. */
	baseUrl: string;
	/** The model id the endpoint expects, e.g. `"qwen3:8b"`. */
	id: string;
	/** Provider name, used for API-key lookup and attribution. Default: `"openai-compatible"`. */
	provider?: string;
	/** Display name. Default: the id. */
	name?: string;
	/** Accepted input kinds. Default: `["text", "image"]` (narrow it for text-only models). */
	input?: ("text" | "image")[];
	/** Default: 128 000 tokens. */
	contextWindow?: number;
	/** Default: 16 384 tokens. */
	maxTokens?: number;
	/** Image limits. Default: none (consumers then use 2000 × 2000 and 4.5 MB). */
	inputLimits?: Model["inputLimits"];
	/** Default: strict mode only when `provider` is `"openai"`; images in tool results never. */
	compat?: Model["compat"];
};

/**
 * A `Model` for any OpenAI-compatible chat-completions endpoint. Without a key in the options or the
 * environment, requests to a custom provider send a placeholder key, which local servers ignore.
 *
 * @example
 * const model = createOpenAICompatibleModel({ baseUrl: "http://127.0.0.1:11434/v1", id: "qwen3:8b" });
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): Model {
	const provider = options.provider ?? "openai-compatible";
	const model: Model = {
		id: options.id,
		name: options.name ?? options.id,
		api: "openai-completions",
		provider,
		baseUrl: options.baseUrl,
		input: options.input ?? ["text", "image"],
		contextWindow: options.contextWindow ?? 128_000,
		maxTokens: options.maxTokens ?? 16_384,
		compat: {
			supportsStrictMode: provider === "openai",
			supportsImagesInToolResults: false,
			...options.compat,
		},
	};
	if (options.inputLimits) model.inputLimits = structuredClone(options.inputLimits);
	return model;
}
