import type { Model } from "@gantry/ai";
import type {
	LifecycleEvent,
	LifecycleEventType,
	SessionShutdownEvent,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
} from "./events.js";
import type { ExtensionWorkspace } from "./extension-workspace.js";
import type { ToolDefinition } from "./tool-definition.js";

/** Interaction with the person using the agent. Without a UI, `confirm` resolves false and `notify` does nothing. */
export interface ExtensionUI {
	confirm(title: string, message?: string): Promise<boolean>;
	/** Resolves to the chosen option, or undefined when dismissed or without a UI. */
	select(title: string, options: string[]): Promise<string | undefined>;
	notify(message: string, level?: "info" | "warning" | "error"): void;
}

/** What every extension handler receives. */
export interface ExtensionContext {
	cwd: string;
	model?: Model;
	hasUI: boolean;
	/** The signal of the current run, when one is in progress. */
	signal?: AbortSignal;
	/** Aborts the current run. */
	abort(): void;
	ui: ExtensionUI;
	/**
	 * The host the session's tools act on (a session always gives it; a runner made without the
	 * `workspace` option does not). Judge paths of calls here, not on this machine: a remote workspace has
	 * its own home, links and path syntax.
	 */
	workspace?: ExtensionWorkspace;
}

import type { ToolInfo } from "./events.js";

export type { ToolInfo };

/** What a handler may return; `void` so that handlers declared apart from `on` may return nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: see above
export type HandlerResult<TResult> = TResult | undefined | void;

/**
 * Handles `tool_call`: return `{ block: true, reason }` to block, mutate `event.input` to change the
 * arguments, or return nothing to allow. May throw: the call is then blocked with the error's message.
 */
export type ToolCallHandler = (
	event: ToolCallEvent,
	ctx: ExtensionContext,
) => HandlerResult<ToolCallEventResult> | Promise<HandlerResult<ToolCallEventResult>>;
/**
 * Handles `tool_result`: return the fields to rewrite, or nothing. May throw: the error is reported to the
 * runner's error listeners and the handler is skipped.
 */
export type ToolResultHandler = (
	event: ToolResultEvent,
	ctx: ExtensionContext,
) => HandlerResult<ToolResultEventResult> | Promise<HandlerResult<ToolResultEventResult>>;
/** Observes a lifecycle event. May throw: the error is reported and the other observers still run. */
export type LifecycleHandler<TType extends LifecycleEventType = LifecycleEventType> = (
	event: LifecycleEvent<TType>,
	ctx: ExtensionContext,
) => void | Promise<void>;

/**
 * Runs when the session is disposed, after its last run ended: close servers, connections and processes
 * the extension opened. Awaited; may throw (the error is reported and the other handlers still run).
 */
export type SessionShutdownHandler = (event: SessionShutdownEvent, ctx: ExtensionContext) => void | Promise<void>;

/** What an extension function receives. */
export interface ExtensionAPI {
	/**
	 * Registers a tool. Registering a name this extension already registered replaces that tool (it keeps
	 * its place in the active order); a name another extension holds is ignored with a `tool_conflict`
	 * diagnostic. Throws for a bad name or a non-object `parameters` schema.
	 */
	registerTool(definition: ToolDefinition): void;
	/**
	 * Withdraws a tool this extension registered. A call to it that is still to run is answered with the
	 * error `Tool <name> is no longer available: <reason>`. Registering it again later puts it back in its
	 * place (active again if it was active). Returns false, changing nothing, for a name this extension does
	 * not hold. Never throws.
	 *
	 * @example
	 * api.unregisterTool("mcp__github__create_issue", "the MCP server github disconnected");
	 */
	unregisterTool(name: string, reason?: string): boolean;
	/** Permission hook: block, mutate `event.input`, or terminate. A throwing handler blocks the call. */
	on(event: "tool_call", handler: ToolCallHandler): void;
	/** Result hook: rewrite the result. A throwing handler is reported and skipped. */
	on(event: "tool_result", handler: ToolResultHandler): void;
	/** The session is being disposed: close what the extension opened. See `SessionShutdownHandler`. */
	on(event: "session_shutdown", handler: SessionShutdownHandler): void;
	on<TType extends LifecycleEventType>(event: TType, handler: LifecycleHandler<TType>): void;
	/** Names of the active (declared) tools. */
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	/**
	 * The tool registered under `name` as it is now (a replaced tool shows its new annotations), or
	 * undefined. Cheap enough to call for every tool call, so a permission check can judge the tool as it
	 * is at call time instead of caching `getAllTools()`.
	 */
	getToolInfo(name: string): ToolInfo | undefined;
	/** Replaces the active set (unknown and hidden names are ignored); applies from the next model request. */
	setActiveTools(names: string[]): void;
	/** Rebuilds the tool registry. */
	refreshTools(): void;
}

/** An extension module's default export. */
export type Extension = (api: ExtensionAPI) => void | Promise<void>;
