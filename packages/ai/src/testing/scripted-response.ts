/** A tool call the scripted model makes. */
export type ScriptedToolCall = {
	/** Default: `call_<n>` (OpenAI format) or `toolu_<n>` (Anthropic format), counted per server. */
	id?: string;
	name: string;
	/**
	 * The arguments. An object is sent as its JSON; a string is sent exactly as given, which is how a test
	 * scripts malformed argument JSON (e.g. `'{"path": "a.txt"'`).
	 */
	arguments: string | Record<string, unknown>;
	/**
	 * A freeform (custom) tool's call: in the Responses API format it is sent as a `custom_tool_call`
	 * item whose `input` is `arguments` (a string) as it is, streamed as `custom_tool_call_input` deltas.
	 * The other formats send it as a function call. Default: false.
	 */
	custom?: boolean;
};

/** Token counts the scripted response reports, in Gantry's terms (`input` excludes cached tokens). */
export type ScriptedUsage = { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };

/** A successful (HTTP 200) streamed response. Blocks are sent in the order thinking, text, tool calls. */
export type ScriptedReply = {
	/** Reasoning, sent as `reasoning_content` deltas (OpenAI format) or a `thinking` block (Anthropic format). */
	thinking?: string;
	/** Signature of the Anthropic thinking block. Default: `"sig-<n>"`. */
	thinkingSignature?: string;
	text?: string;
	toolCalls?: ScriptedToolCall[];
	/**
	 * The wire stop reason. Default: `tool_calls` / `tool_use` when there are tool calls, else `stop` /
	 * `end_turn`. Common values are translated to the other format (`length` ↔ `max_tokens`,
	 * `tool_calls` ↔ `tool_use`, `stop` ↔ `end_turn`); anything else is sent as given.
	 */
	finishReason?: string;
	/** Default: `input` ≈ request size / 4, `output` ≈ response size / 4, no cache tokens. */
	usage?: ScriptedUsage;
	/** Characters per text, thinking or argument delta. Default: 8. */
	chunkSize?: number;
	/** Pause between server-sent events, in milliseconds. Default: 0. */
	delayMs?: number;
	/**
	 * Send only this many server-sent events, then keep the connection open without finishing, until
	 * the client disconnects or the server closes. For abort tests. Default: send everything.
	 */
	stallAfterEvents?: number;
	/** After the content, send this in-stream error instead of finishing (Anthropic `event: error`). */
	streamError?: string;
};

/** An HTTP error answer with the provider's JSON error body. */
export type ScriptedHttpError = {
	status: number;
	/** The error message in the JSON body. */
	message: string;
	/** The error type in the body. Default: derived from the status (`rate_limit_error`, `api_error`…). */
	type?: string;
	/** Extra response headers, e.g. `{ "retry-after": "0" }`. */
	headers?: Record<string, string>;
};

/** A recorded response body, sent byte for byte with status 200 (for replaying real provider streams). */
export type ScriptedRawReply = {
	raw: string;
	/** Default: `text/event-stream`. */
	contentType?: string;
	/** Like {@link ScriptedReply.stallAfterEvents}, counted in bytes: send this many, then hang. */
	stallAfterBytes?: number;
};

/** Accept the request and never answer: no status, no headers, until the client gives up or `close()`. */
export type ScriptedNoAnswer = { noAnswer: true };

export type ScriptedResponse = ScriptedReply | ScriptedHttpError | ScriptedRawReply | ScriptedNoAnswer;

/** What the server received, recorded for every request it answered (errors included). */
export type RecordedLlmRequest = {
	/** Which wire format the path selected (`openai`: chat completions; `responses`: the Responses API). */
	format: "openai" | "responses" | "anthropic";
	method: string;
	/** The request path, e.g. `/v1/chat/completions`. */
	path: string;
	/** Request headers, lower-case names. */
	headers: Record<string, string>;
	/** The parsed JSON body. */
	body: Record<string, unknown>;
};

/** A response, or a function that computes it from the request (it may be async and may throw). */
export type ScriptedResponseSource =
	| ScriptedResponse
	| ((request: RecordedLlmRequest) => ScriptedResponse | Promise<ScriptedResponse>);

export function isHttpError(response: ScriptedResponse): response is ScriptedHttpError {
	return typeof (response as ScriptedHttpError).status === "number";
}

export function isRawReply(response: ScriptedResponse): response is ScriptedRawReply {
	return typeof (response as ScriptedRawReply).raw === "string";
}

export function isNoAnswer(response: ScriptedResponse): response is ScriptedNoAnswer {
	return (response as ScriptedNoAnswer).noAnswer === true;
}

const FINISH_REASON_TRANSLATIONS: Record<"openai" | "anthropic", Record<string, string>> = {
	openai: { end_turn: "stop", max_tokens: "length", tool_use: "tool_calls" },
	anthropic: { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use" },
};

/** The stop reason to send in `format`. */
export function wireFinishReason(reply: ScriptedReply, format: "openai" | "anthropic"): string {
	const hasToolCalls = (reply.toolCalls?.length ?? 0) > 0;
	const reason = reply.finishReason ?? (hasToolCalls ? "tool_calls" : "stop");
	return FINISH_REASON_TRANSLATIONS[format][reason] ?? reason;
}

/** The argument text of a scripted call, as it goes over the wire. */
export function argumentsText(call: ScriptedToolCall): string {
	return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** Splits text into deltas of `size` characters (at least one delta, possibly empty). */
export function chunkText(text: string, size = 8): string[] {
	const step = Math.max(1, size);
	const pieces: string[] = [];
	for (let start = 0; start < text.length; start += step) pieces.push(text.slice(start, start + step));
	return pieces.length ? pieces : [""];
}

/** Usage with every count filled in (defaults estimated from sizes). */
export function resolvedUsage(reply: ScriptedReply, request: RecordedLlmRequest): Required<ScriptedUsage> {
	const responseSize =
		(reply.text?.length ?? 0) +
		(reply.thinking?.length ?? 0) +
		(reply.toolCalls ?? []).reduce((sum, call) => sum + argumentsText(call).length + call.name.length, 0);
	return {
		input: reply.usage?.input ?? Math.max(1, Math.ceil(JSON.stringify(request.body).length / 4)),
		output: reply.usage?.output ?? Math.max(1, Math.ceil(responseSize / 4)),
		cacheRead: reply.usage?.cacheRead ?? 0,
		cacheWrite: reply.usage?.cacheWrite ?? 0,
	};
}

/** The JSON error type for an HTTP status. */
export function errorTypeFor(status: number): string {
	if (status === 429) return "rate_limit_error";
	if (status === 401) return "authentication_error";
	if (status === 403) return "permission_error";
	if (status === 404) return "not_found_error";
	if (status === 529) return "overloaded_error";
	if (status >= 500) return "api_error";
	return "invalid_request_error";
}
