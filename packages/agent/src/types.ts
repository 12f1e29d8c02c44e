import type {
	AssistantMessage,
	AssistantMessageEvent,
	ConstrainedSampling,
	ImageContent,
	JsonValue,
	Message,
	Model,
	NestedToolCalls,
	StreamOptions,
	stream,
	TextContent,
	Tool,
	ToolCall,
	ToolResultMessage,
	Usage,
} from "@gantry/ai";
import type { Static, TSchema } from "@sinclair/typebox";
import type { ToolCallIdentity } from "./tool-call-identity.js";

/**
 * What a tool returns. `content` goes to the model; `details` to the UI and logs; `structuredContent`
 * to programmatic callers (codemode) and never to the model.
 */
export interface AgentToolResult<TDetails = unknown> {
	/** What the model sees. */
	content: (TextContent | ImageContent)[];
	/** For UIs and logs; kept on the tool result message, never sent to the model. */
	details?: TDetails;
	/** Machine-readable result (matches `outputSchema`); stays on the outcome, never on the message. */
	structuredContent?: JsonValue;
	/** Tokens the tool spent (e.g. calling a model); copied onto the tool result message. */
	usage?: Usage;
	/** A failure reported without throwing (e.g. a non-zero exit code). */
	isError?: boolean;
	/** Ends the agent run after this batch — only when every result of the batch sets it. */
	terminate?: boolean;
	/** Records of the nested calls this tool made; copied onto the tool result message. */
	nestedCalls?: NestedToolCalls;
}

/** Reports a partial result while a tool runs; calls after the tool settled are ignored. */
export type AgentToolUpdateCallback<TDetails = unknown> = (partial: AgentToolResult<TDetails>) => void;

/** The tool interface the loop runs. Build one from a `ToolDefinition` with `wrapToolDefinition`. */
export interface AgentTool<TParams extends TSchema = TSchema, TDetails = unknown> extends Tool {
	parameters: TParams;
	/** Shown in UIs. */
	label: string;
	/** JSON Schema of `structuredContent` on success. */
	outputSchema?: TSchema;
	/** Ask providers to constrain the arguments to the schema. Default: the provider's own behaviour. */
	constrainedSampling?: ConstrainedSampling;
	/** Rewrites legacy argument shapes before validation. May throw (the call then fails). */
	prepareArguments?: (raw: unknown) => unknown;
	/** `"sequential"` makes every batch that contains this tool run one call at a time. */
	executionMode?: "sequential" | "parallel";
	/**
	 * Does the work. Throwing is how a tool reports failure. `call` says where the call sits (the
	 * model-issued call at the root, the path of nested calls); the pipeline always passes it, direct
	 * callers may leave it out.
	 */
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
		call?: ToolCallIdentity,
	): Promise<AgentToolResult<TDetails>>;
}

export type AgentToolCall = ToolCall;

/** The settled outcome of one tool call (what `runToolCall` and nested calls resolve to). */
export interface AgentToolCallOutcome {
	toolCall: AgentToolCall;
	result: AgentToolResult;
	isError: boolean;
	/** Wall time of `execute`; absent when the tool never ran. */
	durationMs?: number;
	/** `beforeToolCall` blocked the call (or threw, which blocks): it never ran. Absent otherwise. */
	blocked?: true;
}

/** What `beforeToolCall` returns to block a call (or `undefined` to allow it). */
export interface BeforeToolCallResult {
	/** Do not run the tool; the model gets an error result with `reason`. */
	block?: boolean;
	reason?: string;
	/** With `block`, counts towards ending the run after this batch. */
	terminate?: boolean;
}

/** Field-by-field overrides of the result (no deep merge). */
export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	/** Returning `content` without `structuredContent` drops the original structured content. */
	structuredContent?: JsonValue;
	isError?: boolean;
	usage?: Usage;
	terminate?: boolean;
}

/**
 * Messages the agent keeps. Applications may add their own message types by declaration merging on
 * `CustomAgentMessages`; `convertToLlm` decides what the model sees of them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extension point for declaration merging
export interface CustomAgentMessages {}
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

export interface AgentContext {
	/** Sent with every request; the loop reads it at each model request. */
	systemPrompt?: string;
	/** The conversation so far. The loop works on a copy and never modifies this array. */
	messages: AgentMessage[];
	/** The tools declared to the model; read at each model request, and that request's calls run against them. */
	tools?: AgentTool[];
}

export interface BeforeToolCallContext {
	/** The assistant message that contains the call. */
	assistantMessage: AssistantMessage;
	/** The call as the model sent it (never modified by the pipeline). */
	toolCall: AgentToolCall;
	/** The validated arguments that `execute` will receive; changing them in place changes what it receives. */
	args: unknown;
	/** The conversation including the assistant message. */
	context: AgentContext;
}

export interface AfterToolCallContext extends BeforeToolCallContext {
	/** The result `execute` returned, or the error result of a throw. */
	result: AgentToolResult;
	/** Whether the call failed so far (a throw or `isError: true` in the result). */
	isError: boolean;
}

/**
 * Runs for each call after validation, before `execute` (in source order, also in parallel batches).
 * Return `{ block: true, reason? }` to stop the call (the model sees `reason`, or "Tool execution was
 * blocked"), optionally with `terminate: true`; return nothing to allow it. May change `args` in place.
 * A throw blocks the call with the error's message (permission checks fail closed).
 *
 * @example
 * const beforeToolCall: BeforeToolCallHook = async ({ toolCall }) =>
 *   toolCall.name === "bash" ? { block: true, reason: "bash is disabled in this session" } : undefined;
 */
export type BeforeToolCallHook = (
	context: BeforeToolCallContext,
	signal?: AbortSignal,
) => Promise<BeforeToolCallResult | undefined>;

/**
 * Runs after every `execute` (also after a throw), before the result is reported. Returned fields replace
 * the result's fields one by one (no deep merge); `content` without `structuredContent` drops the
 * original `structuredContent`. Return nothing to keep the result. A throw turns the result into an
 * error with the thrown message.
 *
 * @example
 * const afterToolCall: AfterToolCallHook = async ({ result }) => ({
 *   content: result.content.map((block) => (block.type === "text" ? { ...block, text: redact(block.text) } : block)),
 * });
 */
export type AfterToolCallHook = (
	context: AfterToolCallContext,
	signal?: AbortSignal,
) => Promise<AfterToolCallResult | undefined>;

/**
 * Looks up the tool a call names when the call is about to run. `declared` is the tool of that name the
 * request offered (undefined when it offered none). Return the tool to run (e.g. the current version of a
 * tool replaced since the request), a string to answer the call with that error text (a tool withdrawn
 * since), or undefined for `Tool <name> not found`. Must not throw (a throw fails the call with its message).
 *
 * @example
 * const resolveTool: ToolResolver = (name, declared) =>
 *   declared === undefined ? undefined : (registry.current(name) ?? `Tool ${name} is no longer available`);
 */
export type ToolResolver = (name: string, declared: AgentTool | undefined) => AgentTool | string | undefined;

/** Options of `runToolCall`: where to look the tool up, the hooks, and what the hooks are told. */
export interface RunToolCallOptions {
	/** The tools the call's name is looked up in. */
	tools: readonly AgentTool[];
	/** Same contract as `AgentLoopConfig.resolveTool`. Default: the tool found in `tools`. */
	resolveTool?: ToolResolver;
	/** The assistant message the call belongs to; handed to the hooks. */
	assistantMessage: AssistantMessage;
	/** The conversation so far; handed to the hooks. */
	context: AgentContext;
	/** Same contract as `AgentLoopConfig.beforeToolCall`. Default: none. */
	beforeToolCall?: BeforeToolCallHook;
	/** Same contract as `AgentLoopConfig.afterToolCall`. Default: none. */
	afterToolCall?: AfterToolCallHook;
	/** Reaches the hooks and `execute`; when already aborted, the call is answered `Operation aborted`. */
	signal?: AbortSignal;
	/** Receives the tool's partial results until it settles. Must not throw (a throw is ignored). */
	onUpdate?: AgentToolUpdateCallback;
	/**
	 * Where the call sits; a nested call passes `caller.child()` (its `id` must be `toolCall.id`).
	 * Default: a root identity for `toolCall.id`.
	 */
	identity?: ToolCallIdentity;
}

export interface AgentLoopConfig {
	/** The model to request; read at each model request. */
	model: Model;
	/** Makes one model request. Default: `stream` from `@gantry/ai`. Must not throw (a throw ends the run as an error message). */
	streamFn?: typeof stream;
	/**
	 * How a batch of tool calls runs. Default `"parallel"`: preflight in source order, then the allowed
	 * calls concurrently. `"sequential"` (also forced by any tool of the batch with `executionMode:
	 * "sequential"`) runs one call after the other.
	 */
	toolExecution?: "parallel" | "sequential";
	/**
	 * Call-time lookup of the tool a call names, for hosts whose tools change while a response streams.
	 * Default: the tools the request declared. See `ToolResolver`.
	 */
	resolveTool?: ToolResolver;
	/** Permission check and argument rewriting before `execute`. Default: none. See `BeforeToolCallHook`. */
	beforeToolCall?: BeforeToolCallHook;
	/** Result rewriting after `execute`. Default: none. See `AfterToolCallHook`. */
	afterToolCall?: AfterToolCallHook;
	/**
	 * Turns agent messages into model messages before each request. Default: keep user, assistant and
	 * tool result messages (custom messages are left out). A throw ends the run as an error message.
	 */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/**
	 * Rewrites the message list for one request (pruning, compaction); the run's own transcript is not
	 * changed. Default: none. A throw ends the run as an error message.
	 */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/**
	 * Polled at the start and after each turn's tool calls; returned messages are injected before the next
	 * request. Default: none. Should not throw (a throw counts as no messages).
	 */
	getSteeringMessages?: () => Promise<AgentMessage[]>;
	/**
	 * Polled when the agent would stop; returned messages start another turn. Default: none. Should not
	 * throw (a throw counts as no messages).
	 */
	getFollowUpMessages?: () => Promise<AgentMessage[]>;
	/** The API key for every request, unless `getApiKey` returns one. Default: the provider's own lookup. */
	apiKey?: string;
	/**
	 * Resolves the key before each request (short-lived tokens); takes precedence over `apiKey` when it
	 * returns one. Default: none. A throw ends the run as an error message.
	 */
	getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;
	/** Output-token limit per request. Default: the provider's. */
	maxTokens?: number;
	/** Sampling temperature. Default: the provider's. */
	temperature?: number;
	/**
	 * More options sent with every model request (`StreamOptions` of `@gantry/ai`): `sessionId` (the
	 * prompt-cache key), `reasoning`, `idleTimeoutMs`, `toolChoice`, … Default: none.
	 */
	streamOptions?: AgentStreamOptions;
}

/** The request options the loop passes through unchanged (it sets `apiKey`, `signal`, `maxTokens`, `temperature`). */
export type AgentStreamOptions = Omit<StreamOptions, "apiKey" | "signal" | "maxTokens" | "temperature">;

export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start" | "message_end"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown; parentToolCallId?: string }
	| {
			type: "tool_execution_update";
			toolCallId: string;
			toolName: string;
			args: unknown;
			partialResult: AgentToolResult;
			parentToolCallId?: string;
	  }
	| {
			type: "tool_execution_end";
			toolCallId: string;
			toolName: string;
			result: AgentToolResult;
			isError: boolean;
			durationMs?: number;
			/** The call was blocked before it ran (`beforeToolCall`); absent otherwise. */
			blocked?: true;
			parentToolCallId?: string;
	  };

/** The live state of an `Agent`. */
export interface AgentState {
	/** Assigning takes effect at the next model request. */
	systemPrompt: string;
	/** Assigning takes effect at the next model request. */
	model: Model;
	/** The active tools. Assigning takes effect at the next model request. */
	tools: AgentTool[];
	/** The transcript; each message is appended when its `message_end` event is handled. */
	messages: AgentMessage[];
	/** True from `prompt`/`continue` until the run and every listener are done. */
	isStreaming: boolean;
	/** Ids of the tool calls between their `tool_execution_start` and `tool_execution_end` (a new set each change). */
	pendingToolCalls: Set<string>;
	/** The assistant message being streamed (partial), while a model request is in flight. */
	streamMessage?: AssistantMessage;
	/** The `errorMessage` of the last failed or aborted assistant message; cleared by the next run. */
	error?: string;
}
