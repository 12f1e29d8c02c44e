import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { complete, getModel, type Model, onProviderWarning, type ProviderWarning } from "../../src/index.js";
import { type ScriptedLlmServer, startScriptedLlmServer } from "../../src/testing/index.js";
import { HELLO } from "./helpers.js";

let server: ScriptedLlmServer;
const stops: (() => void)[] = [];

beforeEach(async () => {
	server = await startScriptedLlmServer();
});

afterEach(async () => {
	for (const stop of stops.splice(0)) stop();
	await server.close();
	vi.restoreAllMocks();
});

function collect(): ProviderWarning[] {
	const warnings: ProviderWarning[] = [];
	stops.push(onProviderWarning((warning) => warnings.push(warning)));
	return warnings;
}

describe("a deprecated Anthropic model", () => {
	it("warns once per process, in Gantry's words, though the SDK warns on every request and retry", async () => {
		const printed = vi.spyOn(console, "warn");
		const warnings = collect();
		// An id only the SDK's own table knows: the SDK's warning is caught and said once.
		const model: Model = { ...getModel("anthropic", "claude-haiku-4-5"), id: "claude-sonnet-4-5-20250929" };
		model.baseUrl = server.anthropicBaseUrl;
		server.enqueue(
			{ status: 500, message: "try again" },
			{ status: 500, message: "try again" },
			{ text: "ok" },
			{ text: "ok again" },
		);
		const first = await complete(model, HELLO, { apiKey: "k", maxRetries: 2, retryBaseDelayMs: 1 });
		const second = await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
		expect([first.stopReason, second.stopReason]).toEqual(["stop", "stop"]);
		expect(server.requests).toHaveLength(4);
		expect(warnings).toEqual([
			{
				key: "deprecated:claude-sonnet-4-5-20250929",
				model: "claude-sonnet-4-5-20250929",
				message:
					"the model claude-sonnet-4-5-20250929 is deprecated and reaches its end of life on November 30th, 2026; choose a current model (gantry --model, or one of getModels()).",
			},
		]);
		expect(printed).not.toHaveBeenCalled();
	});

	it("warns from the catalogue before the first request, and the SDK's own warning is not said again", async () => {
		const warnings = collect();
		const model = { ...getModel("anthropic", "claude-opus-4-5"), baseUrl: server.anthropicBaseUrl };
		server.enqueue({ text: "ok" }, { text: "ok" });
		await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
		await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
		expect(warnings.map((warning) => warning.message)).toEqual([
			"the model claude-opus-4-5 is deprecated and reaches its end of life on 2027-01-22; choose a current model (gantry --model, or one of getModels()).",
		]);
	});

	it("prints once with console.warn when nobody listens", async () => {
		const printed = vi.spyOn(console, "warn").mockImplementation(() => undefined);
		const model: Model = { ...getModel("anthropic", "claude-haiku-4-5"), id: "claude-mythos-preview" };
		model.baseUrl = server.anthropicBaseUrl;
		server.enqueue({ text: "ok" }, { text: "ok" });
		await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
		await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
		expect(printed.mock.calls).toEqual([
			[
				"@gantry/ai: the model claude-mythos-preview is deprecated and reaches its end of life on June 30th, 2026; choose a current model (gantry --model, or one of getModels()).",
			],
		]);
	});
});
