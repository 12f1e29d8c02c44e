import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	createOpenAICompatibleModel,
	DEFAULT_MODEL_IDS,
	GantryAiError,
	getModel,
	getModels,
	modelDeprecationWarning,
} from "../src/index.js";

/**
 * The deprecation table of the installed `@anthropic-ai/sdk` (`DEPRECATED_MODELS`: model id → the date it
 * reaches end of life, in words), read from the SDK's own file at test time: when an upgraded SDK lists a
 * default or a catalogue entry, these tests fail.
 */
function sdkDeprecatedModels(): Record<string, string> {
	const require = createRequire(import.meta.url);
	// The package root: its main entry, index.js, sits there.
	const root = dirname(require.resolve("@anthropic-ai/sdk"));
	const source = readFileSync(join(root, "internal/data/deprecated-models.js"), "utf8");
	const table: Record<string, string> = {};
	for (const [, id, date] of source.matchAll(/'([^']+)':\s*'([^']+)'/g)) {
		if (id !== undefined && date !== undefined) table[id] = date;
	}
	expect(Object.keys(table).length, "the SDK's table was found and read").toBeGreaterThan(0);
	return table;
}

/** "November 30th, 2026" → "2026-11-30". */
function isoDate(words: string): string {
	const parsed = new Date(`${words.replace(/(\d+)(st|nd|rd|th)/, "$1")} UTC`);
	return parsed.toISOString().slice(0, 10);
}

describe("model catalogue", () => {
	it("knows current OpenAI and Anthropic models with limits", () => {
		const ids = getModels().map((model) => `${model.provider}/${model.id}`);
		expect(ids).toEqual(
			expect.arrayContaining([
				"openai/gpt-5.6-sol",
				"openai/gpt-5.6-terra",
				"openai/gpt-5.6-luna",
				"openai/gpt-5.4",
				"openai/gpt-4.1",
				"openai/o4-mini",
				"anthropic/claude-opus-5-5",
				"anthropic/claude-sonnet-5-5",
				"anthropic/claude-haiku-4-5",
			]),
		);
		for (const model of getModels()) {
			expect(model.contextWindow).toBeGreaterThan(model.maxTokens);
			expect(model.input).toContain("text");
			expect(model.inputLimits?.images?.resize?.maxWidth).toBeGreaterThan(0);
		}
		expect(getModels("anthropic").every((model) => model.api === "anthropic-messages")).toBe(true);
		// OpenAI's reasoning models use the Responses API; the others chat completions.
		for (const model of getModels("openai")) {
			expect(model.api).toBe(model.reasoning ? "openai-responses" : "openai-completions");
		}
		expect(getModel("openai", "o4-mini")).toMatchObject({ api: "openai-responses", reasoning: true });
		expect(getModel("openai", "gpt-4.1")).toMatchObject({ api: "openai-completions", reasoning: false });
		expect(getModel("anthropic", "claude-sonnet-5-5")).toMatchObject({
			contextWindow: 1_000_000,
			maxTokens: 128_000,
			compat: { anthropicThinking: "adaptive" },
		});
	});

	it("says which models edit with patches: OpenAI's GPT-5 family, no other", () => {
		for (const model of getModels()) {
			const patches = model.provider === "openai" && model.id.startsWith("gpt-5");
			expect(model.editFormat === "apply_patch", model.id).toBe(patches);
		}
	});

	it("has prices per million tokens for every built-in model", () => {
		for (const model of getModels()) {
			expect(model.cost?.input).toBeGreaterThan(0);
			expect(model.cost?.output).toBeGreaterThan(model.cost?.input ?? 0);
			expect(model.cost?.cacheRead).toBeLessThan(model.cost?.input ?? 0);
		}
		expect(getModel("anthropic", "claude-sonnet-5-5").cost).toEqual({
			input: 2,
			output: 10,
			cacheRead: 0.2,
			cacheWrite: 2.5,
		});
		expect(getModel("openai", "gpt-5.6-terra").cost).toEqual({ input: 2, output: 12, cacheRead: 0.2, cacheWrite: 2.5 });
	});

	it("has defaults in the catalogue that the installed Anthropic SDK does not call deprecated", () => {
		const deprecated = sdkDeprecatedModels();
		expect(deprecated["claude-sonnet-4-5"], "the table this test reads is the SDK's").toBeDefined();
		for (const [provider, id] of Object.entries(DEFAULT_MODEL_IDS)) {
			const model = getModel(provider, id);
			expect(deprecated[id], `${id} is in the SDK's deprecation table`).toBeUndefined();
			expect(model.retiresOn, `${id} has a retirement date`).toBeUndefined();
		}
	});

	it("marks every catalogue model the installed SDK deprecates, with the SDK's date", () => {
		const deprecated = sdkDeprecatedModels();
		for (const model of getModels("anthropic")) {
			const date = deprecated[model.id];
			expect(model.retiresOn, model.id).toBe(date === undefined ? undefined : isoDate(date));
		}
		expect(modelDeprecationWarning(getModel("anthropic", "claude-opus-4-5"))?.message).toBe(
			"the model claude-opus-4-5 is deprecated and reaches its end of life on 2027-01-22; choose a current model (gantry --model, or one of getModels()).",
		);
		expect(modelDeprecationWarning(getModel("anthropic", "claude-sonnet-5-5"))).toBeUndefined();
	});

	it("returns copies, so callers cannot change the catalogue", () => {
		const model = getModel("openai", "gpt-4.1");
		model.maxTokens = 1;
		expect(getModel("openai", "gpt-4.1").maxTokens).toBeGreaterThan(1);
	});

	it("throws unknown_model listing the known ids", () => {
		expect(() => getModel("openai", "gpt-9")).toThrowError(GantryAiError);
		expect(() => getModel("openai", "gpt-9")).toThrowError(/Unknown model "gpt-9".*gpt-5\.6-terra.*gpt-4\.1-mini/);
		expect(() => getModel("nobody", "x")).toThrowError(/known providers: openai, anthropic/);
		expect(() => getModel("anthropic", "claude-2")).toThrowError(expect.objectContaining({ code: "unknown_model" }));
	});
});

describe("createOpenAICompatibleModel", () => {
	it("describes a local endpoint with generous defaults and no strict mode", () => {
		const model = createOpenAICompatibleModel({ baseUrl: "http://127.0.0.1:11434/v1", id: "qwen3:8b" });
		expect(model).toMatchObject({
			id: "qwen3:8b",
			name: "qwen3:8b",
			api: "openai-completions",
			provider: "openai-compatible",
			baseUrl: "http://127.0.0.1:11434/v1",
			input: ["text", "image"],
			compat: { supportsStrictMode: false },
		});
		expect(model.contextWindow).toBeGreaterThanOrEqual(128_000);
	});

	it("supports strict mode when the provider is openai, and takes overrides", () => {
		const model = createOpenAICompatibleModel({
			baseUrl: "https://example.test/v1",
			id: "m",
			provider: "openai",
			input: ["text"],
			contextWindow: 8_192,
			maxTokens: 1_024,
		});
		expect(model).toMatchObject({ provider: "openai", input: ["text"], contextWindow: 8_192, maxTokens: 1_024 });
		expect(model.compat?.supportsStrictMode).toBe(true);
	});
});
