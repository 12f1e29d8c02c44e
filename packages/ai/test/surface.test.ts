import { describe, expect, it } from "vitest";

describe("@gantry/ai surface", () => {
	it("exports exactly these runtime names", async () => {
		const api = await import("@gantry/ai");
		expect(Object.keys(api).sort()).toEqual([
			"DEFAULT_MODEL_IDS",
			"EventStream",
			"GantryAiError",
			"GantryError",
			"UnsupportedStrictJsonSchemaError",
			"addUsage",
			"complete",
			"completeUsage",
			"createAssistantMessage",
			"createAssistantMessageEventStream",
			"createFauxModel",
			"createOpenAICompatibleModel",
			"emptyUsage",
			"errorText",
			"failedAssistantMessage",
			"getApiKey",
			"getApiKeyVariable",
			"getModel",
			"getModels",
			"getProvider",
			"isGantryError",
			"makeStrictJsonSchema",
			"modelDeprecationWarning",
			"onProviderWarning",
			"parseToolCallArguments",
			"priceUsage",
			"registerProvider",
			"reportProviderWarning",
			"stream",
			"supportsStrictMode",
			"toPlainJsonSchema",
			"toolToJsonSchema",
			"unregisterProvider",
			"withoutUndefined",
		]);
	});

	it("registers the built-in providers on import", async () => {
		const api = await import("@gantry/ai");
		for (const name of ["openai-completions", "openai-responses", "anthropic-messages", "faux"]) {
			expect(typeof api.getProvider(name)).toBe("function");
		}
		expect(new api.UnsupportedStrictJsonSchemaError("x", "/a")).toBeInstanceOf(Error);
	});

	it("exports the scripted server at @gantry/ai/testing", async () => {
		const testing = await import("@gantry/ai/testing");
		expect(Object.keys(testing).sort()).toEqual(["startScriptedLlmServer"]);
	});
});
