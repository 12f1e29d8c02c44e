/** Longest wait a `retry-after` header may ask for; a longer one ends the request instead. */
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;
const RETRYABLE_ERROR_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error", "server_error"]);
const CONNECTION_ERRORS = new Set(["APIConnectionError", "APIConnectionTimeoutError"]);

/** What a provider SDK's error says about retrying it. */
export type FailureKind = { status?: number; retryable: boolean; headers?: Headers };

/**
 * Classifies an error of the OpenAI or Anthropic client (both shape their errors alike): HTTP 408, 409,
 * 429 and 5xx, streamed overloaded / server errors and connection failures are retryable.
 */
export function classifyFailure(error: unknown): FailureKind {
	if (!(error instanceof Error)) return { retryable: false };
	const fields = error as Error & { status?: unknown; headers?: unknown; error?: unknown; type?: unknown };
	const headers = fields.headers instanceof Headers ? fields.headers : undefined;
	if (typeof fields.status === "number") {
		const status = fields.status;
		const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
		return headers ? { status, retryable, headers } : { status, retryable };
	}
	if (CONNECTION_ERRORS.has(error.constructor.name)) return { retryable: true };
	return { retryable: RETRYABLE_ERROR_TYPES.has(errorType(fields.error) ?? String(fields.type)) };
}

/** `error.type` of a streamed error body: `{ type }`, or Anthropic's `{ type: "error", error: { type } }`. */
function errorType(body: unknown): string | undefined {
	if (typeof body !== "object" || body === null) return undefined;
	const record = body as { type?: unknown; error?: unknown };
	if (record.type === "error") return errorType(record.error);
	return typeof record.type === "string" ? record.type : undefined;
}

/**
 * How long to wait before retry number `retry` (0 = the first): the server's `retry-after-ms` or
 * `retry-after` (seconds or an HTTP date) when it sent one, else `baseMs · 2^retry` plus up to 25 %
 * jitter, at most 30 s. `undefined` when the server asks for longer than {@link MAX_RETRY_AFTER_MS}.
 */
export function retryDelayMs(retry: number, headers: Headers | undefined, baseMs: number): number | undefined {
	const asked = retryAfterMs(headers);
	if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
	const backoff = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry);
	return Math.round(backoff * (1 + Math.random() * 0.25));
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
	const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
	if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
	const value = headers?.get("retry-after")?.trim();
	if (!value) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
