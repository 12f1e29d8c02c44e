import { GantryAiError } from "./errors.js";
import type { ImageResizeLimits, Model, ModelCost } from "./types.js";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** OpenAI scales high-detail images to fit 2048 × 2048; 20 MB is its per-image upload limit. */
const OPENAI_IMAGE_LIMITS: ImageResizeLimits = { maxWidth: 2048, maxHeight: 2048, maxBytes: 20_000_000 };
/** Anthropic downscales anything beyond 1568 px on the long edge and rejects images over 5 MB. */
const ANTHROPIC_IMAGE_LIMITS: ImageResizeLimits = { maxWidth: 1568, maxHeight: 1568, maxBytes: 4_500_000 };

type Prices = [input: number, output: number, cacheRead: number, cacheWrite: number];

function price([input, output, cacheRead, cacheWrite]: Prices): ModelCost {
	return { input, output, cacheRead, cacheWrite };
}

/** What an entry may add to the defaults of its provider. */
type Extras = Pick<Model, "editFormat" | "retiresOn"> & { thinking?: "budget" | "adaptive" };

/**
 * An OpenAI model. Reasoning models use the Responses API (reasoning summaries, encrypted reasoning
 * carried across turns); the others chat completions. GPT-5 models edit with patches (`editFormat`).
 */
function openaiModel(
	id: string,
	name: string,
	context: [window: number, output: number],
	reasons: boolean,
	prices: Prices,
	extras: Extras = {},
): Model {
	const model: Model = {
		id,
		name,
		api: reasons ? "openai-responses" : "openai-completions",
		provider: "openai",
		baseUrl: OPENAI_BASE_URL,
		input: ["text", "image"],
		contextWindow: context[0],
		maxTokens: context[1],
		reasoning: reasons,
		cost: price(prices),
		inputLimits: { images: { resize: OPENAI_IMAGE_LIMITS } },
		compat: { supportsStrictMode: true, supportsImagesInToolResults: false },
	};
	if (extras.editFormat) model.editFormat = extras.editFormat;
	if (extras.retiresOn) model.retiresOn = extras.retiresOn;
	return model;
}

/**
 * An Anthropic model; all of them think. Cache writes are the 5-minute price. Models from Claude 5 on
 * think adaptively (`compat.anthropicThinking: "adaptive"`): a reasoning level is sent as an effort, not
 * a token budget, which those models refuse.
 */
function anthropicModel(
	id: string,
	name: string,
	context: [window: number, output: number],
	prices: Prices,
	extras: Extras = {},
): Model {
	const model: Model = {
		id,
		name,
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl: ANTHROPIC_BASE_URL,
		input: ["text", "image"],
		contextWindow: context[0],
		maxTokens: context[1],
		reasoning: true,
		cost: price(prices),
		inputLimits: { images: { resize: ANTHROPIC_IMAGE_LIMITS } },
		compat: {
			supportsStrictMode: false,
			supportsImagesInToolResults: true,
			...(extras.thinking ? { anthropicThinking: extras.thinking } : {}),
		},
	};
	if (extras.retiresOn) model.retiresOn = extras.retiresOn;
	return model;
}

const PATCHES: Extras = { editFormat: "apply_patch" };
const ADAPTIVE: Extras = { thinking: "adaptive" };

/**
 * Prices are US dollars per million tokens (input, output, cache read, cache write) from the providers'
 * own pages, standard tier, the shortest-prompt price band. The README says, row by row, where each
 * figure comes from. The ids are those the pinned SDKs' types name (`ChatModel` / `ResponsesModel` in
 * `openai`, `Model` in `@anthropic-ai/sdk`); `retiresOn` is from `@anthropic-ai/sdk`'s own deprecation
 * table, which a test keeps in step with the installed SDK.
 */
const CATALOGUE: readonly Model[] = [
	openaiModel("gpt-5.6-sol", "GPT-5.6 Sol", [1_050_000, 128_000], true, [4, 20, 0.4, 5], PATCHES),
	openaiModel("gpt-5.6-terra", "GPT-5.6 Terra", [1_050_000, 128_000], true, [2, 12, 0.2, 2.5], PATCHES),
	openaiModel("gpt-5.6-luna", "GPT-5.6 Luna", [1_050_000, 128_000], true, [0.2, 1.2, 0.02, 0.25], PATCHES),
	openaiModel("gpt-5.4", "GPT-5.4", [1_050_000, 128_000], true, [2.5, 15, 0.25, 0], PATCHES),
	openaiModel("gpt-5.4-mini", "GPT-5.4 mini", [400_000, 128_000], true, [0.75, 4.5, 0.075, 0], PATCHES),
	openaiModel("gpt-5.4-nano", "GPT-5.4 nano", [400_000, 128_000], true, [0.2, 1.25, 0.02, 0], PATCHES),
	openaiModel("gpt-5.1", "GPT-5.1", [400_000, 128_000], true, [1.25, 10, 0.125, 0], PATCHES),
	openaiModel("gpt-5", "GPT-5", [400_000, 128_000], true, [1.25, 10, 0.125, 0], PATCHES),
	openaiModel("gpt-5-mini", "GPT-5 mini", [400_000, 128_000], true, [0.25, 2, 0.025, 0], PATCHES),
	openaiModel("o4-mini", "o4-mini", [200_000, 100_000], true, [1.1, 4.4, 0.275, 0]),
	openaiModel("gpt-4.1", "GPT-4.1", [1_047_576, 32_768], false, [2, 8, 0.5, 0]),
	openaiModel("gpt-4.1-mini", "GPT-4.1 mini", [1_047_576, 32_768], false, [0.4, 1.6, 0.1, 0]),
	openaiModel("gpt-4o", "GPT-4o", [128_000, 16_384], false, [2.5, 10, 1.25, 0]),
	anthropicModel("claude-opus-5-5", "Claude Opus 5.5", [1_000_000, 128_000], [4, 20, 0.2, 5], ADAPTIVE),
	anthropicModel("claude-sonnet-5-5", "Claude Sonnet 5.5", [1_000_000, 128_000], [2, 10, 0.2, 2.5], ADAPTIVE),
	anthropicModel("claude-opus-5", "Claude Opus 5", [1_000_000, 128_000], [5, 25, 0.5, 6.25], ADAPTIVE),
	anthropicModel("claude-sonnet-5", "Claude Sonnet 5", [1_000_000, 128_000], [2, 10, 0.2, 2.5], ADAPTIVE),
	anthropicModel("claude-haiku-4-5", "Claude Haiku 4.5", [200_000, 64_000], [1, 5, 0.1, 1.25]),
	anthropicModel("claude-opus-4-5", "Claude Opus 4.5", [200_000, 64_000], [5, 25, 0.5, 6.25], {
		retiresOn: "2027-01-22",
	}),
];

/**
 * The model each provider's requests use when none is named (the CLI's `--provider` without `--model`):
 * a current model of the middle tier, which edits and reasons well at a moderate price. A test checks
 * that none is in `@anthropic-ai/sdk`'s deprecation table.
 */
export const DEFAULT_MODEL_IDS: Readonly<Record<"openai" | "anthropic", string>> = Object.freeze({
	openai: "gpt-5.6-terra",
	anthropic: "claude-sonnet-5-5",
});

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
 * const model = getModel("anthropic", "claude-sonnet-5-5");
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
	/**
	 * Which OpenAI API the endpoint speaks: chat completions, or the Responses API (`/responses`, e.g. a
	 * proxy in front of OpenAI). Default: `"openai-completions"`.
	 */
	api?: "openai-completions" | "openai-responses";
	/** Whether the model reasons (see `Model.reasoning`). Default: unknown. */
	reasoning?: boolean;
	/** Prices per million tokens, for `usage.cost`. Default: none. */
	cost?: Model["cost"];
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
		api: options.api ?? "openai-completions",
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
	if (options.reasoning !== undefined) model.reasoning = options.reasoning;
	if (options.cost) model.cost = { ...options.cost };
	return model;
}
