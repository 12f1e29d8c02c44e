import type {
	AssistantMessage,
	AssistantMessageEvent,
	ConstrainedSampling,
	ImageContent,
	JsonValue,
	Message,
	Model,
	NestedToolCalls,
	stream,
	TextContent,
	Tool,
	ToolCall,
	ToolResultMessage,
	Usage,
} from "@gantry/ai";
import type { Static, TSchema } from "@sinclair/typebox";

/**
 * What a tool returns. `content` goes to the model; `details` to the UI and logs; `structuredContent`
 * to programmatic callers (codemode) and never to the model.
 */
export interface AgentToolResult<TDetails = unknown> {
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	structuredContent?: JsonValue;
	usage?: Usage;
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
	constrainedSampling?: ConstrainedSampling;
	/** Rewrites legacy argument shapes before validation. May throw (the call then fails). */
	prepareArguments?: (raw: unknown) => unknown;
	/** `"sequential"` makes every batch that contains this tool run one call at a time. */
	executionMode?: "sequential" | "parallel";
	/** Does the work. Throwing is how a tool reports failure. */
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
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
}

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
	systemPrompt?: string;
	messages: AgentMessage[];
	tools?: AgentTool[];
}

export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	/** The validated arguments that `execute` will receive. */
	args: unknown;
	context: AgentContext;
}

export interface AfterToolCallContext extends BeforeToolCallContext {
	result: AgentToolResult;
	isError: boolean;
}

export type BeforeToolCallHook = (
	context: BeforeToolCallContext,
	signal?: AbortSignal,
) => Promise<BeforeToolCallResult | undefined>;
export type AfterToolCallHook = (
	context: AfterToolCallContext,
	signal?: AbortSignal,
) => Promise<AfterToolCallResult | undefined>;

/** Options of `runToolCall`: where to look the tool up, the hooks, and what the hooks are told. */
export interface RunToolCallOptions {
	/** The tools the call's name is looked up in. */
	tools: readonly AgentTool[];
	/** The assistant message the call belongs to; handed to the hooks. */
	assistantMessage: AssistantMessage;
	/** The conversation so far; handed to the hooks. */
	context: AgentContext;
	/** Same contract as `AgentLoopConfig.beforeToolCall`. */
	beforeToolCall?: BeforeToolCallHook;
	/** Same contract as `AgentLoopConfig.afterToolCall`. */
	afterToolCall?: AfterToolCallHook;
	/** Reaches the hooks and `execute`; when already aborted, the call is answered `Operation aborted`. */
	signal?: AbortSignal;
	/** Receives the tool's partial results until it settles. Must not throw (a throw is ignored). */
	onUpdate?: AgentToolUpdateCallback;
}

export interface AgentLoopConfig {
	model: Model;
	/** Defaults to `stream` from `@gantry/ai`. */
	streamFn?: typeof stream;
	/** Default `"parallel"`. */
	toolExecution?: "parallel" | "sequential";
	/** Runs after validation, before `execute`: block, or allow by returning nothing. A throw blocks the call. */
	beforeToolCall?: BeforeToolCallHook;
	/** Runs after `execute`: may override result fields. A throw turns the result into an error. */
	afterToolCall?: AfterToolCallHook;
	/** Turns agent messages into model messages before each request. Default: keep user/assistant/toolResult. */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Rewrites the message list before each request (pruning, compaction). */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Polled after each batch of tool calls; returned messages are injected before the next request. */
	getSteeringMessages?: () => Promise<AgentMessage[]>;
	/** Polled when the agent would stop; returned messages start another turn. */
	getFollowUpMessages?: () => Promise<AgentMessage[]>;
	apiKey?: string;
	/** Resolves the key per request (takes precedence over `apiKey` when it returns one). */
	getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;
	maxTokens?: number;
	temperature?: number;
}

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
			parentToolCallId?: string;
	  };

export interface AgentState {
	systemPrompt: string;
	model: Model;
	/** Assigning takes effect at the next model request. */
	tools: AgentTool[];
	messages: AgentMessage[];
	isStreaming: boolean;
	pendingToolCalls: Set<string>;
	/** The assistant message being streamed (partial), while a model request is in flight. */
	streamMessage?: AssistantMessage;
	/** The `errorMessage` of the last failed or aborted assistant message; cleared by the next run. */
	error?: string;
}
