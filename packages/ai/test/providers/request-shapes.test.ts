import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type Context, createOpenAICompatibleModel, getModel } from "../../src/index.js";
import { at, recordedRequest, useScriptedProvider } from "./helpers.js";

const TOOLS: Context = {
	systemPrompt: "Be brief.",
	messages: [{ role: "user", content: "Read it.", timestamp: 1 }],
	tools: [
		{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) },
		{ name: "ls", description: "List a folder", parameters: Type.Object({ path: Type.String() }) },
	],
};

const completions = useScriptedProvider(
	(server) => ({ ...getModel("openai", "gpt-4.1"), baseUrl: server.openaiBaseUrl }),
	{ apiKey: "sk", maxRetries: 0 },
);
const reasoningCompletions = useScriptedProvider(
	(server) =>
		createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "deepseek-reasoner", provider: "deepseek" }),
	{ apiKey: "sk", maxRetries: 0 },
);
const responses = useScriptedProvider(
	(server) => ({ ...getModel("openai", "o4-mini"), baseUrl: server.responsesBaseUrl }),
	{ apiKey: "sk", maxRetries: 0 },
);
const anthropic = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "k", maxRetries: 0 },
);
const adaptive = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-sonnet-5-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "k", maxRetries: 0 },
);

describe("chat completions request shape", () => {
	it("sends reasoning_effort, tool_choice, parallel_tool_calls and OpenAI's prompt_cache_key", async () => {
		completions.server.enqueue({ text: "ok" }, { text: "ok" });
		await completions.request(TOOLS, {
			toolChoice: { name: "read" },
			parallelToolCalls: false,
			sessionId: "session-1",
		});
		expect(recordedRequest(completions.server, 0).body).toMatchObject({
			tool_choice: { type: "function", function: { name: "read" } },
			parallel_tool_calls: false,
			prompt_cache_key: "session-1",
		});
		// gpt-4.1 does not reason: no reasoning_effort even when asked.
		expect(recordedRequest(completions.server, 0).body.reasoning_effort).toBeUndefined();
		await completions.request(TOOLS, { toolChoice: "required", reasoning: "high" });
		expect(recordedRequest(completions.server, 1).body).toMatchObject({ tool_choice: "required" });
		expect(recordedRequest(completions.server, 1).body.reasoning_effort).toBeUndefined();
	});

	it("sends reasoning_effort to a model that may reason, and no cache key to a non-OpenAI endpoint", async () => {
		reasoningCompletions.server.enqueue({ text: "ok" });
		await reasoningCompletions.request(TOOLS, { reasoning: "low", sessionId: "session-1", toolChoice: "none" });
		const body = recordedRequest(reasoningCompletions.server, 0).body;
		expect(body).toMatchObject({ reasoning_effort: "low", tool_choice: "none" });
		expect(body.prompt_cache_key).toBeUndefined();
	});
});

describe("Responses API request shape", () => {
	it("sends reasoning.effort with summaries, tool_choice, parallel_tool_calls and prompt_cache_key", async () => {
		responses.server.enqueue({ text: "ok" });
		await responses.request(TOOLS, {
			reasoning: "medium",
			toolChoice: { name: "ls" },
			parallelToolCalls: true,
			sessionId: "session-2",
			maxTokens: 999,
		});
		const recorded = recordedRequest(responses.server, 0);
		expect(recorded.path).toBe("/v1/responses");
		expect(recorded.body).toMatchObject({
			model: "o4-mini",
			instructions: "Be brief.",
			store: false,
			include: ["reasoning.encrypted_content"],
			reasoning: { effort: "medium", summary: "auto" },
			tool_choice: { type: "function", name: "ls" },
			parallel_tool_calls: true,
			prompt_cache_key: "session-2",
			max_output_tokens: 999,
		});
		expect(at(recorded.body, "tools", 0)).toEqual({
			type: "function",
			name: "read",
			description: "Read a file",
			parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
			strict: false,
		});
	});
});

describe("Anthropic request shape", () => {
	it("puts cache breakpoints on the last tool, the system prompt and the conversation tail", async () => {
		anthropic.server.enqueue({ text: "ok" });
		await anthropic.request(TOOLS);
		const body = recordedRequest(anthropic.server, 0).body;
		expect(at(body, "tools", 0, "cache_control")).toBeUndefined();
		expect(at(body, "tools", 1, "cache_control")).toEqual({ type: "ephemeral" });
		expect(at(body, "system", 0, "cache_control")).toEqual({ type: "ephemeral" });
		expect(at(body, "messages", 0, "content", 0, "cache_control")).toEqual({ type: "ephemeral" });
	});

	it.each([
		["minimal", 1024],
		["low", 4096],
		["medium", 10_240],
		["high", 32_000],
	] as const)(
		"turns reasoning %s into extended thinking with budget %i and max_tokens above it",
		async (level, budget) => {
			anthropic.server.enqueue({ text: "ok" });
			await anthropic.request(TOOLS, { reasoning: level, maxTokens: 2000 });
			const body = recordedRequest(anthropic.server, 0).body;
			expect(body.thinking).toEqual({ type: "enabled", budget_tokens: budget });
			expect(body.max_tokens as number).toBeGreaterThan(budget);
			expect(body.max_tokens as number).toBeLessThanOrEqual(anthropic.model.maxTokens);
		},
	);

	it.each([
		["minimal", "low"],
		["low", "low"],
		["medium", "medium"],
		["high", "high"],
	] as const)(
		"asks a Claude 5 model to think adaptively at reasoning %s (effort %s), never with a budget",
		async (level, effort) => {
			adaptive.server.enqueue({ text: "ok" });
			await adaptive.request(TOOLS, { reasoning: level, maxTokens: 2000 });
			const body = recordedRequest(adaptive.server, 0).body;
			expect(body.thinking).toEqual({ type: "adaptive" });
			expect(body.output_config).toEqual({ effort });
			expect(body.max_tokens).toBe(2000);
		},
	);

	it("sends no thinking settings to an adaptive model unless reasoning is asked for", async () => {
		adaptive.server.enqueue({ text: "ok" }, { text: "ok" });
		await adaptive.request(TOOLS);
		await adaptive.request(TOOLS, { thinking: { budgetTokens: 5000 } });
		expect(recordedRequest(adaptive.server, 0).body.thinking).toBeUndefined();
		expect(recordedRequest(adaptive.server, 0).body.output_config).toBeUndefined();
		expect(recordedRequest(adaptive.server, 1).body).toMatchObject({
			thinking: { type: "adaptive" },
			output_config: { effort: "high" },
		});
	});

	it("keeps the budget below the model's output limit", async () => {
		anthropic.server.enqueue({ text: "ok" });
		anthropic.model.maxTokens = 16_000;
		await anthropic.request(TOOLS, { reasoning: "high" });
		expect(recordedRequest(anthropic.server, 0).body).toMatchObject({
			thinking: { budget_tokens: 11_904 },
			max_tokens: 16_000,
		});
	});

	it.each([
		[{ toolChoice: "auto" }, { type: "auto" }],
		[{ toolChoice: "none" }, { type: "none" }],
		[{ toolChoice: "required" }, { type: "any" }],
		[
			{ toolChoice: { name: "read" }, parallelToolCalls: false },
			{ type: "tool", name: "read", disable_parallel_tool_use: true },
		],
		[{ parallelToolCalls: false }, { type: "auto", disable_parallel_tool_use: true }],
	] as const)("sends %j as tool_choice %j", async (options, expected) => {
		anthropic.server.enqueue({ text: "ok" });
		await anthropic.request(TOOLS, options);
		expect(recordedRequest(anthropic.server, 0).body.tool_choice).toEqual(expected);
	});
});

describe("usage.cost", () => {
	it("is filled from the model's prices, cache reads and writes included", async () => {
		anthropic.server.enqueue({
			text: "ok",
			usage: { input: 1_000_000, output: 200_000, cacheRead: 2_000_000, cacheWrite: 100_000 },
		});
		const { message } = await anthropic.request();
		// claude-haiku-4-5: $1 in, $5 out, $0.10 cache read, $1.25 cache write per million.
		expect(message.usage.cost).toEqual({ input: 1, output: 1, cacheRead: 0.2, cacheWrite: 0.125, total: 2.325 });
	});

	it("stays 0 for a model without prices", async () => {
		reasoningCompletions.server.enqueue({ text: "ok", usage: { input: 1000, output: 100 } });
		const { message } = await reasoningCompletions.request();
		expect(message.usage.cost.total).toBe(0);
	});
});
