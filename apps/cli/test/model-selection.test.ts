import { describe, expect, it } from "vitest";
import { CliError } from "../src/errors.js";
import { requireApiKey, selectModel } from "../src/model-selection.js";

describe("selectModel", () => {
	it("defaults to OpenAI's default model with OPENAI_API_KEY", () => {
		const selected = selectModel({}, { OPENAI_API_KEY: "sk-openai" });
		expect(selected.model).toMatchObject({ provider: "openai", id: "gpt-5.6-terra", api: "openai-responses" });
		expect(selected.apiKey).toBe("sk-openai");
	});

	it("picks Anthropic when only its key is set, or when the model is an Anthropic one", () => {
		expect(selectModel({}, { ANTHROPIC_API_KEY: "sk-ant" }).model).toMatchObject({
			provider: "anthropic",
			id: "claude-sonnet-5-5",
		});
		const byModel = selectModel({ model: "claude-haiku-4-5" }, { ANTHROPIC_API_KEY: "sk-ant" });
		expect(byModel.model).toMatchObject({ provider: "anthropic", id: "claude-haiku-4-5", api: "anthropic-messages" });
	});

	it("honours OPENAI_BASE_URL like --base-url, for catalogue and other model ids", () => {
		const proxied = selectModel({}, { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_API_KEY: "sk-x" });
		expect(proxied.model).toMatchObject({
			provider: "openai",
			id: "gpt-5.6-terra",
			baseUrl: "http://127.0.0.1:8080/v1",
		});
		expect(proxied.apiKey).toBe("sk-x");
		const local = selectModel({ model: "qwen3:8b" }, { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
		expect(local.model).toMatchObject({ id: "qwen3:8b", baseUrl: "http://127.0.0.1:11434/v1" });
		expect(local.missingKey).toBeUndefined();
		// --base-url wins; an Anthropic model or provider ignores the OpenAI variable.
		const flag = selectModel({ baseUrl: "http://127.0.0.1:9/v1", model: "m" }, { OPENAI_BASE_URL: "http://x/v1" });
		expect(flag.model.baseUrl).toBe("http://127.0.0.1:9/v1");
		const claude = selectModel(
			{ model: "claude-haiku-4-5" },
			{ OPENAI_BASE_URL: "http://x/v1", ANTHROPIC_API_KEY: "k" },
		);
		expect(claude.model.provider).toBe("anthropic");
		expect(() => selectModel({}, { OPENAI_BASE_URL: "localhost:1234" })).toThrow(
			"OPENAI_BASE_URL must be an http(s) URL",
		);
	});

	it("prefers --api-key over the environment", () => {
		expect(selectModel({ apiKey: "sk-flag" }, { OPENAI_API_KEY: "sk-env" }).apiKey).toBe("sk-flag");
	});

	it("reports a missing key with the variable to set, without throwing", () => {
		const selected = selectModel({ provider: "anthropic" }, {});
		expect(selected.missingKey).toBe("No API key for anthropic: set ANTHROPIC_API_KEY or pass --api-key");
		expect(() => requireApiKey(selected)).toThrow(CliError);
	});

	it("accepts any model id with --base-url, as an OpenAI-compatible endpoint that needs no key", () => {
		const selected = selectModel({ baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b", provider: "openai" }, {});
		expect(selected.model).toMatchObject({
			id: "qwen3:8b",
			api: "openai-completions",
			provider: "openai",
			baseUrl: "http://127.0.0.1:11434/v1",
		});
		expect(selected.missingKey).toBeUndefined();
		expect(selectModel({ baseUrl: "http://127.0.0.1:8000/v1", model: "m" }, {}).model.provider).toBe(
			"openai-compatible",
		);
	});

	it("speaks the Anthropic API to a custom endpoint with --provider anthropic", () => {
		const selected = selectModel(
			{ baseUrl: "http://127.0.0.1:9000/v1", model: "local-claude", provider: "anthropic" },
			{},
		);
		expect(selected.model).toMatchObject({
			id: "local-claude",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: "http://127.0.0.1:9000",
		});
		// An id the catalogue does not know is asked to think with a budget, as the Messages API always took.
		expect(selected.model.compat?.anthropicThinking).toBeUndefined();
		expect(selected.model.retiresOn).toBeUndefined();
	});

	it("rejects unknown providers and catalogue models as usage errors", () => {
		for (const choice of [{ provider: "acme" }, { model: "gpt-0" }, { provider: "openai", model: "claude-opus-4-1" }]) {
			expect(() => selectModel(choice, {})).toThrow(expect.objectContaining({ exitCode: 2 }));
		}
	});
});
