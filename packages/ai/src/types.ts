import type { TSchema } from "@sinclair/typebox";

/** Any value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type TextContent = { type: "text"; text: string };
/** An image, base64-encoded (no `data:` prefix). */
export type ImageContent = { type: "image"; data: string; mimeType: string };
/**
 * The model's reasoning. `signature` is opaque provider data (Anthropic) that must travel back unchanged
 * for the provider to accept the block in a later request; `redacted` marks a block whose reasoning the
 * provider encrypted (its data is then in `signature` and `thinking` is empty). `reasoningField` names
 * the response field an OpenAI-compatible endpoint streamed the reasoning in (`reasoning_content`,
 * `reasoning`); the reasoning is sent back to that same model in that field.
 */
export type ThinkingContent = {
	type: "thinking";
	thinking: string;
	signature?: string;
	redacted?: boolean;
	reasoningField?: string;
};
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

/**
 * Tokens of one request (or a sum of requests). `input` excludes cached tokens: `cacheRead` are prompt
 * tokens read from the provider's cache, `cacheWrite` tokens written to it. `reasoning`, when the provider
 * reports it, is the part of `output` the model spent reasoning. `cost` is in US dollars, computed from
 * the model's `cost` (all zero for models without prices).
 */
export type Usage = {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	reasoning?: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
};

/**
 * A block the provider produced and keeps for itself, which Gantry does not interpret: Anthropic's server
 * tools (`server_tool_use`, `web_search_tool_result`, `tool_search_tool_result`, code-execution results…).
 * `data` is the block as the provider's API accepts it back; it is sent back unchanged to the same `api`
 * (so the conversation replays) and left out for any other api. It has no stream events of its own.
 */
export type ProviderContent = { type: "provider"; api: string; kind: string; data: { [key: string]: JsonValue } };

export type StopReason = "stop" | "toolUse" | "length" | "error" | "aborted";

export type UserMessage = { role: "user"; content: string | (TextContent | ImageContent)[]; timestamp: number };

export type AssistantMessage = {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall | ProviderContent)[];
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
	/** The call was blocked before it ran (a permission policy or a `tool_call` hook said no). */
	blocked?: true;
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
	/** The call was blocked before it ran (`beforeToolCall` blocked it, or failed and so blocked it). */
	blocked?: true;
	timestamp: number;
};

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Asks the provider to constrain the model's tool arguments. `json_schema`: to the tool's schema;
 * `"prefer"` uses strict mode where the provider and the schema allow it and silently falls back
 * otherwise, `"require"` fails the request when it cannot be honoured. `grammar`: the tool takes one
 * string (its schema has exactly one property, a required string) and the model writes that string
 * freely, constrained to the grammar (`syntax` `"lark"` or `"regex"`); where the provider has freeform
 * tools (OpenAI's Responses API: a `custom` tool) the tool is declared as one, elsewhere it is a function
 * tool with its one string argument (strict where supported).
 */
export type ConstrainedSampling =
	| false
	| { type: "json_schema"; strict: "prefer" | "require" }
	| { type: "grammar"; syntax: "lark" | "regex"; definition: string };

/** A tool as the model sees it: a name, a description and a TypeBox object schema. */
export type Tool = {
	name: string;
	description: string;
	parameters: TSchema;
	constrainedSampling?: ConstrainedSampling;
};

export type Context = { systemPrompt?: string; messages: Message[]; tools?: Tool[] };

export type KnownApi = "openai-completions" | "openai-responses" | "anthropic-messages" | "faux";

/** How hard a reasoning model thinks before it answers. */
export type ReasoningLevel = "minimal" | "low" | "medium" | "high";

/** Which tool the model may or must call: any (`"auto"`), none, at least one (`"required"`), or this one. */
export type ToolChoice = "auto" | "none" | "required" | { name: string };

/** US dollars per million tokens. */
export type ModelCost = { input: number; output: number; cacheRead: number; cacheWrite: number };

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
	/** Whether the model reasons before answering (then `StreamOptions.reasoning` applies). Default: unknown. */
	reasoning?: boolean;
	/** Prices per million tokens; `usage.cost` is computed from them. Default: none (cost stays 0). */
	cost?: ModelCost;
	/**
	 * How the model edits files best: `"apply_patch"` (Codex's patch format, which OpenAI's GPT-5 and
	 * codex models are trained on; a session then activates `apply_patch` instead of `edit`) or `"edit"`
	 * (exact-text replacements). Default: `"edit"`.
	 */
	editFormat?: "edit" | "apply_patch";
	/** The date (`YYYY-MM-DD`) the provider retires the model, once it announced one. Default: none. */
	retiresOn?: string;
	inputLimits?: { images?: { resize?: ImageResizeLimits } };
	compat?: {
		/** Whether the endpoint accepts `strict: true` tool schemas. Default: true for provider "openai". */
		supportsStrictMode?: boolean;
		/** Whether tool results may carry images natively. */
		supportsImagesInToolResults?: boolean;
		/**
		 * Whether the endpoint takes freeform (custom) tools with a grammar (OpenAI's Responses API). Default:
		 * true for provider "openai" on the Responses API, false otherwise (the tool is then a function tool).
		 */
		supportsFreeformTools?: boolean;
		/**
		 * How an Anthropic model is asked to think: `"budget"` (extended thinking with `budget_tokens`) or
		 * `"adaptive"` (`thinking: { type: "adaptive" }` with `output_config.effort`; Claude 5 models refuse a
		 * budget). Default: `"budget"`.
		 */
		anthropicThinking?: "budget" | "adaptive";
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
	/**
	 * How often a failed request is retried before any content streamed: HTTP 408, 409, 429 and 5xx,
	 * overloaded and server errors in the stream, connection failures. Default: 2.
	 */
	maxRetries?: number;
	/**
	 * The first retry waits this long, each further one twice as long (plus up to 25 % jitter, at most
	 * 30 s). A `retry-after` / `retry-after-ms` header of the answer is honoured instead, up to 60 s.
	 * Default: 1000.
	 */
	retryBaseDelayMs?: number;
	/**
	 * When the server sends no byte for this long (while connecting, before the headers or in the middle of
	 * the stream), the request ends with `stopReason: "error"` and a message naming the timeout. It is not
	 * retried. Default: 120 000.
	 */
	idleTimeoutMs?: number;
	/**
	 * How hard a reasoning model thinks: chat completions send `reasoning_effort`, the Responses API
	 * `reasoning.effort`, Anthropic turns on extended thinking with a budget of 1 024 / 4 096 / 10 240 /
	 * 32 000 tokens (raising `max_tokens` above it). Ignored for models whose `reasoning` is false.
	 * Default: the provider's default (Anthropic: no extended thinking).
	 */
	reasoning?: ReasoningLevel;
	/**
	 * Asks for extended thinking with exactly this budget (Anthropic; below `maxTokens`); wins over
	 * `reasoning`. Other providers ignore it. Default: no extended thinking requested.
	 */
	thinking?: { budgetTokens: number };
	/** Which tool the model may or must call, sent in each API's own shape. Default: the API's (`auto`). */
	toolChoice?: ToolChoice;
	/**
	 * Whether the model may call several tools in one turn (`parallel_tool_calls`; Anthropic:
	 * `disable_parallel_tool_use` when false). Default: not sent (the APIs allow parallel calls).
	 */
	parallelToolCalls?: boolean;
	/**
	 * Identifies the conversation, so requests of one session share a prompt cache: sent as
	 * `prompt_cache_key` to OpenAI (chat completions on api.openai.com and the Responses API).
	 * Default: none.
	 */
	sessionId?: string;
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
