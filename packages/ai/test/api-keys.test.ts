import { describe, expect, it } from "vitest";
import { resolveApiKey } from "../src/api-keys.js";
import { createOpenAICompatibleModel, getApiKey, getApiKeyVariable, getModel } from "../src/index.js";

describe("getApiKey", () => {
	it("prefers options.apiKey, then the provider's environment variable", () => {
		const env = { OPENAI_API_KEY: "sk-env", ANTHROPIC_API_KEY: "ant-env" };
		expect(getApiKey("openai", { apiKey: "sk-option", env })).toBe("sk-option");
		expect(getApiKey("openai", { env })).toBe("sk-env");
		expect(getApiKey("anthropic", { env })).toBe("ant-env");
		expect(getApiKey("openai", { env: {} })).toBeUndefined();
		expect(getApiKey("openai", { env: { OPENAI_API_KEY: "" } })).toBeUndefined();
		expect(getApiKey("ollama", { env })).toBeUndefined();
		expect(getApiKeyVariable("anthropic")).toBe("ANTHROPIC_API_KEY");
	});
});

describe("resolveApiKey", () => {
	it("explains a missing key for an official endpoint, naming the variable", () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const result = resolveApiKey(getModel("openai", "gpt-4.1"));
			expect(result).toEqual({ error: expect.stringContaining("OPENAI_API_KEY") });
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});

	it("sends a placeholder to local endpoints, even under provider openai", () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const local = createOpenAICompatibleModel({ baseUrl: "http://127.0.0.1:8080/v1", id: "llama" });
			expect(resolveApiKey(local)).toEqual({ apiKey: "none" });
			expect(resolveApiKey({ ...local, provider: "openai" })).toEqual({ apiKey: "none" });
			expect(resolveApiKey(local, { apiKey: "secret" })).toEqual({ apiKey: "secret" });
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});
});
