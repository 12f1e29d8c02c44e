import { describe, expect, it } from "vitest";
import { createOpenAICompatibleModel, GantryAiError, getModel, getModels } from "../src/index.js";

describe("model catalogue", () => {
	it("knows current OpenAI and Anthropic models with limits", () => {
		const ids = getModels().map((model) => `${model.provider}/${model.id}`);
		expect(ids).toEqual(
			expect.arrayContaining([
				"openai/gpt-4.1",
				"openai/gpt-4.1-mini",
				"openai/gpt-4o",
				"openai/o4-mini",
				"anthropic/claude-sonnet-4-5",
				"anthropic/claude-opus-4-1",
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
	});

	it("has prices per million tokens for every built-in model", () => {
		for (const model of getModels()) {
			expect(model.cost?.input).toBeGreaterThan(0);
			expect(model.cost?.output).toBeGreaterThan(model.cost?.input ?? 0);
			expect(model.cost?.cacheRead).toBeLessThan(model.cost?.input ?? 0);
		}
		expect(getModel("anthropic", "claude-sonnet-4-5").cost).toEqual({
			input: 3,
			output: 15,
			cacheRead: 0.3,
			cacheWrite: 3.75,
		});
	});

	it("returns copies, so callers cannot change the catalogue", () => {
		const model = getModel("openai", "gpt-4.1");
		model.maxTokens = 1;
		expect(getModel("openai", "gpt-4.1").maxTokens).toBeGreaterThan(1);
	});

	it("throws unknown_model listing the known ids", () => {
		expect(() => getModel("openai", "gpt-9")).toThrowError(GantryAiError);
		expect(() => getModel("openai", "gpt-9")).toThrowError(/Unknown model "gpt-9".*gpt-4\.1-mini/);
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
