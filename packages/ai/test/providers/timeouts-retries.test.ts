import { describe, expect, it } from "vitest";
import { createOpenAICompatibleModel, getModel, stream } from "../../src/index.js";
import { retryDelayMs } from "../../src/providers/retry-policy.js";
import { drain, expectBlocksClosed, HELLO, useScriptedProvider } from "./helpers.js";

const openai = useScriptedProvider(
	(server) => createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "test-model" }),
	{ retryBaseDelayMs: 1, idleTimeoutMs: 5000 },
);
const anthropic = useScriptedProvider(
	(server) => ({ ...getModel("anthropic", "claude-haiku-4-5"), baseUrl: server.anthropicBaseUrl }),
	{ apiKey: "k", retryBaseDelayMs: 1, idleTimeoutMs: 5000 },
);

describe.each([
	["openai-completions", openai],
	["anthropic-messages", anthropic],
])("%s: idle timeout and retries", (_api, scripted) => {
	it("ends a request to a server that accepts and never answers, naming the timeout, without retrying", async () => {
		scripted.server.enqueue({ noAnswer: true }, { text: "never asked for" });
		const { events, message } = await scripted.request(HELLO, { idleTimeoutMs: 300 });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/sent nothing for 0\.3 s \(idleTimeoutMs: 300\)/);
		expect(scripted.server.requests).toHaveLength(1);
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "error" });
	});

	it("ends a stream that stops in the middle, keeping the partial text and closing its block", async () => {
		scripted.server.enqueue({ text: "This answer stops halfway through.", chunkSize: 4, stallAfterEvents: 5 });
		const { events, message } = await scripted.request(HELLO, { idleTimeoutMs: 300 });
		expect(message).toMatchObject({ stopReason: "error", errorMessage: expect.stringContaining("idleTimeoutMs: 300") });
		const text = message.content[0];
		expect(text?.type === "text" && text.text.length > 0).toBe(true);
		expectBlocksClosed(events);
	});

	it("retries a 503 and a 429 (honouring retry-after) before any content, then streams the answer", async () => {
		scripted.server.enqueue(
			{ status: 503, message: "Service unavailable" },
			{ status: 429, message: "Slow down", headers: { "retry-after": "0" } },
			{ text: "Finally." },
		);
		const { message } = await scripted.request();
		expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "Finally." }] });
		expect(scripted.server.requests).toHaveLength(3);
	});

	it("gives up after maxRetries with the status and the retries in the message", async () => {
		scripted.server.enqueue(...[1, 2, 3].map(() => ({ status: 529, message: "Overloaded" })));
		const { message } = await scripted.request(HELLO, { maxRetries: 2 });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^529 .*Overloaded.* \(retried 2 times, then out of retries\)$/);
		expect(scripted.server.requests).toHaveLength(3);
	});

	it("does not retry a 400 and says so", async () => {
		scripted.server.enqueue({ status: 400, message: "Bad tool schema" }, { text: "never asked for" });
		const { message } = await scripted.request();
		expect(message.errorMessage).toMatch(/^400 .*Bad tool schema.* \(not retried: not retryable\)$/);
		expect(scripted.server.requests).toHaveLength(1);
	});

	it("retries an in-stream server error before any content, but not once content streamed", async () => {
		scripted.server.enqueue({ streamError: "Overloaded" }, { text: "Recovered." });
		expect((await scripted.request()).message).toMatchObject({ stopReason: "stop", content: [{ text: "Recovered." }] });
		expect(scripted.server.requests).toHaveLength(2);
		scripted.server.enqueue({ text: "Partial", streamError: "Overloaded" }, { text: "never asked for" });
		const { message } = await scripted.request();
		expect(message).toMatchObject({ stopReason: "error", content: [{ type: "text", text: "Partial" }] });
		expect(scripted.server.requests).toHaveLength(3);
	});

	it("ends as aborted when aborted while waiting to retry", async () => {
		scripted.server.enqueue({ status: 503, message: "Busy" }, { text: "never asked for" });
		const controller = new AbortController();
		const events = stream(scripted.model, HELLO, { apiKey: "k", signal: controller.signal, retryBaseDelayMs: 60_000 });
		setTimeout(() => controller.abort(), 200);
		const { message } = await drain(events);
		expect(message.stopReason).toBe("aborted");
		expect(scripted.server.requests).toHaveLength(1);
	});
});

describe("retryDelayMs", () => {
	it("honours retry-after-ms, retry-after in seconds and as a date, and refuses waits over 60 s", () => {
		expect(retryDelayMs(0, new Headers({ "retry-after-ms": "150" }), 1000)).toBe(150);
		expect(retryDelayMs(3, new Headers({ "retry-after": "2" }), 1000)).toBe(2000);
		const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
		const fromDate = retryDelayMs(0, new Headers({ "retry-after": inTenSeconds }), 1000) ?? 0;
		expect(fromDate).toBeGreaterThan(8000);
		expect(fromDate).toBeLessThanOrEqual(10_000);
		expect(retryDelayMs(0, new Headers({ "retry-after": "600" }), 1000)).toBeUndefined();
	});

	it("backs off exponentially from the base with at most 25 % jitter, capped at 30 s", () => {
		for (const retry of [0, 1, 2]) {
			const delay = retryDelayMs(retry, undefined, 100) ?? 0;
			expect(delay).toBeGreaterThanOrEqual(100 * 2 ** retry);
			expect(delay).toBeLessThanOrEqual(125 * 2 ** retry);
		}
		expect(retryDelayMs(20, undefined, 1000)).toBeLessThanOrEqual(37_500);
	});
});
