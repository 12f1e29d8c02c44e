import type { AgentEvent } from "@gantry/agent";
import type { ImageContent, JsonValue, TextContent, Usage } from "@gantry/ai";
import type { ToolAnnotations, ToolExposure, ToolNamespace } from "./tool-definition.js";

/** A registered tool as listed by `getAllTools` (and carried by `tool_call` as `tool`). */
export interface ToolInfo {
	name: string;
	label: string;
	description: string;
	exposure: ToolExposure;
	annotations?: ToolAnnotations;
	namespace?: ToolNamespace;
	/** `"builtin"`, `"sdk"`, or the path (or name) of the extension that registered it. */
	source: string;
}

/**
 * Fired before a tool runs (after validation). Handlers may block it, mutate `input` in place to change
 * the arguments, or (with `block`) ask to end the run after the batch.
 */
export interface ToolCallEvent {
	type: "tool_call";
	toolCallId: string;
	/** Set for nested calls made through `ctx.executeTool`. */
	parentToolCallId?: string;
	toolName: string;
	/** The validated arguments; mutate in place to change what the tool receives. */
	input: Record<string, unknown>;
	/**
	 * The tool as registered when the call was made (its annotations and source, what a permission policy
	 * judges), when the host knows it. Handlers get it frozen and cannot replace it, so no handler can make
	 * a tool look read-only to the ones after it.
	 */
	readonly tool?: Readonly<ToolInfo>;
}

export interface ToolCallEventResult {
	/** Do not run the tool; the model sees an error result with `reason`. */
	block?: boolean;
	reason?: string;
	/** Counts only together with `block: true`. */
	terminate?: boolean;
}

/** Fired after a tool ran; handlers may rewrite the result, each seeing the previous rewrite. */
export interface ToolResultEvent {
	type: "tool_result";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	structuredContent?: JsonValue;
	details: unknown;
	isError: boolean;
	usage?: Usage;
}

/** Field-by-field rewrite; `content` without `structuredContent` drops the structured content. */
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	structuredContent?: JsonValue;
	isError?: boolean;
	usage?: Usage;
}

/** The agent events extensions can observe. */
export type LifecycleEventType =
	| "tool_execution_start"
	| "tool_execution_update"
	| "tool_execution_end"
	| "agent_start"
	| "agent_end"
	| "turn_start"
	| "turn_end";

export type LifecycleEvent<TType extends LifecycleEventType = LifecycleEventType> = Extract<
	AgentEvent,
	{ type: TType }
>;

/** The session is being disposed: the moment to close what an extension opened (servers, connections). */
export interface SessionShutdownEvent {
	type: "session_shutdown";
}

export type ExtensionEventType = "tool_call" | "tool_result" | "session_shutdown" | LifecycleEventType;
