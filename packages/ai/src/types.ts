import type { TSchema } from "@sinclair/typebox";

/** Any value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type TextContent = { type: "text"; text: string };
/** An image, base64-encoded (no `data:` prefix). */
export type ImageContent = { type: "image"; data: string; mimeType: string };
/**
 * The model's reasoning. `signature` is opaque provider data (Anthropic) that must travel back unchanged
 * for the provider to accept the block in a later request; `redacted` marks a block whose reasoning the
 * provider encrypted (its data is then in `signature` and `thinking` is empty).
 */
export type ThinkingContent = { type: "thinking"; thinking: string; signature?: string; redacted?: boolean };
/**
 * A tool call the model made. `argumentsError` is set when the provider could not parse the streamed
 * arguments as JSON; `arguments` is then `{}` and the agent answers the call with a validation error.
 */
export type ToolCall = {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	argumentsError?: string;
};

export type Usage = {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
};

export type StopReason = "stop" | "toolUse" | "length" | "error" | "aborted";

export type UserMessage = { role: "user"; content: string | (TextContent | ImageContent)[]; timestamp: number };

export type AssistantMessage = {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	stopReason: StopReason;
	usage: Usage;
	api: string;
	provider: string;
	model: string;
	errorMessage?: string;
	timestamp: number;
};

/** One nested call made by a tool through `ctx.executeTool`, as recorded on the parent's result. */
export type NestedToolCallRecord = {
	id: string;
	name: string;
	arguments?: Record<string, unknown>;
	/** Set instead of `arguments` when the arguments were too large to keep. */
	argumentsBytes?: number;
	status: "ok" | "error" | "unfinished";
	durationMs?: number;
	error?: string;
};

/** The nested calls of one tool call; `complete` is false when limits dropped records or detail. */
export type NestedToolCalls = { calls: NestedToolCallRecord[]; complete: boolean };

export type ToolResultMessage = {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: unknown;
	isError: boolean;
	usage?: Usage;
	nestedCalls?: NestedToolCalls;
	durationMs?: number;
	timestamp: number;
};

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Asks the provider to constrain the model's tool arguments to the schema. `"prefer"` uses strict mode
 * where the provider and the schema allow it and silently falls back otherwise; `"require"` fails the
 * request when it cannot be honoured.
 */
export type ConstrainedSampling = false | { type: "json_schema"; strict: "prefer" | "require" };

/** A tool as the model sees it: a name, a description and a TypeBox object schema. */
export type Tool = {
	name: string;
	description: string;
	parameters: TSchema;
	constrainedSampling?: ConstrainedSampling;
};

export type Context = { systemPrompt?: string; messages: Message[]; tools?: Tool[] };

export type KnownApi = "openai-completions" | "anthropic-messages" | "faux";

export type ImageResizeLimits = { maxWidth: number; maxHeight: number; maxBytes?: number };

export type Model = {
	id: string;
	name: string;
	/** Which provider implementation `stream()` dispatches to. */
	api: KnownApi | (string & {});
	provider: string;
	baseUrl?: string;
	input: ("text" | "image")[];
	contextWindow: number;
	maxTokens: number;
	inputLimits?: { images?: { resize?: ImageResizeLimits } };
	compat?: {
		/** Whether the endpoint accepts `strict: true` tool schemas. Default: true for provider "openai". */
		supportsStrictMode?: boolean;
		/** Whether tool results may carry images natively. */
		supportsImagesInToolResults?: boolean;
	};
};

export type StreamOptions = {
	/** Overrides the key from the environment (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`). */
	apiKey?: string;
	/** Aborting ends the stream with `stopReason: "aborted"`. */
	signal?: AbortSignal;
	/** Upper bound of output tokens. Default: the provider's default (Anthropic: `model.maxTokens`). */
	maxTokens?: number;
	/** Sampling temperature. Default: the provider's default. Anthropic ignores it (the API deprecated it). */
	temperature?: number;
	/** Extra HTTP headers sent with the request. */
	headers?: Record<string, string>;
	/** How often the provider SDK retries a failed request (429, 5xx, connection errors). Default: 2. */
	maxRetries?: number;
	/**
	 * Asks for extended thinking with this many tokens of budget (Anthropic; must be below `maxTokens`).
	 * Other providers ignore it. Default: no extended thinking requested.
	 */
	thinking?: { budgetTokens: number };
};

export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start" | "thinking_start" | "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| {
			type: "text_delta" | "thinking_delta" | "toolcall_delta";
			contentIndex: number;
			delta: string;
			partial: AssistantMessage;
	  }
	| { type: "text_end" | "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
	| { type: "error"; reason: "error" | "aborted"; error: AssistantMessage };
