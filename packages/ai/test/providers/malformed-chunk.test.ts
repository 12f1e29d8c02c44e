import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { complete, createOpenAICompatibleModel, getModel, type Model } from "../../src/index.js";
import { type ScriptedLlmServer, startScriptedLlmServer } from "../../src/testing/index.js";
import { HELLO } from "./helpers.js";

let server: ScriptedLlmServer;

beforeEach(async () => {
	server = await startScriptedLlmServer();
});

afterEach(async () => {
	await server.close();
	vi.restoreAllMocks();
});

const LONG_TAIL = "x".repeat(400);

function models(): [string, Model][] {
	return [
		["chat completions", createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "m" })],
		[
			"Responses API",
			createOpenAICompatibleModel({ baseUrl: server.responsesBaseUrl, id: "m", api: "openai-responses" }),
		],
		["Anthropic", { ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }],
	];
}

describe("a stream chunk that is not JSON", () => {
	it("ends the request with the parser's message and the start of the bad data, without the client printing it", async () => {
		const printed = vi.spyOn(console, "error");
		for (const [name, model] of models()) {
			const bad = `{"type":"broken", oops ${LONG_TAIL}`;
			const event = name === "chat completions" ? "" : "event: message_start\n";
			server.enqueue({ raw: `${event}data: ${bad}\n\n` });
			const message = await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
			expect(message.stopReason, name).toBe("error");
			const text = message.errorMessage ?? "";
			expect(text, name).toMatch(
				/^The server sent a stream chunk that is not valid JSON \(.+JSON.*\): "\{\\"type\\":\\"broken\\", oops x+…"$/,
			);
			// The start of the data, 200 characters of it, then an ellipsis.
			expect(text, name).toContain(`"${bad.slice(0, 200).replaceAll('"', '\\"')}…"`);
			expect(text, name).not.toContain(bad.slice(0, 201).replaceAll('"', '\\"'));
		}
		expect(printed).not.toHaveBeenCalled();
	});

	it("quotes a short bad chunk whole", async () => {
		server.enqueue({ raw: "data: not json at all\n\n" });
		const [entry] = models();
		if (entry === undefined) throw new Error("expected a model to ask");
		const [, model] = entry;
		const message = await complete(model, HELLO, { apiKey: "k", maxRetries: 0 });
		expect(message.errorMessage).toMatch(/not valid JSON \(.*\): "not json at all"$/);
	});
});
