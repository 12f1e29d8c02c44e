import type { AgentTool, AgentToolCallOutcome, ToolCallIdentity } from "@gantry/agent";
import type { Model } from "@gantry/ai";
import type { ExtensionEventType } from "./events.js";
import type { ExtensionUI, ToolInfo } from "./extension-api.js";
import type { ExtensionWorkspace } from "./extension-workspace.js";
import type { ExecuteToolOptions } from "./tool-definition.js";

/** Options of `new ExtensionRunner(...)`. */
export interface ExtensionRunnerOptions {
	/** Working directory handed to every handler and tool context. */
	cwd: string;
	/**
	 * How extensions talk to the person using the agent. Default: no UI — `confirm` resolves false,
	 * `select` resolves undefined, `notify` does nothing.
	 */
	ui?: ExtensionUI;
	/** The model in use; a bound action host's `getModel` takes precedence. Default: none. */
	model?: Model;
	/** Whether a person can answer `ui` prompts. Default: true when `ui` is given, else false. */
	hasUI?: boolean;
	/**
	 * The host the tools act on, handed to handlers as `ctx.workspace` (a session passes its workspace; its
	 * `cwd` should be `cwd`). Default: none, and `ctx.workspace` is left out.
	 */
	workspace?: ExtensionWorkspace;
}

/**
 * What a diagnostic is about:
 * - `tool_conflict`: a tool name was registered twice; the first registration was kept;
 * - `load_failed`: `loadExtensions` could not load a module (see `runner.addLoaded`);
 * - `extension_failed`: an extension function threw while it was being added (see `runner.addLoaded`);
 * - `handler_failed`: a handler threw; reported to error listeners only, never kept in `getDiagnostics()`.
 */
export type ExtensionDiagnosticCode = "tool_conflict" | "load_failed" | "extension_failed" | "handler_failed";

/** A problem with an extension that did not stop the others. */
export interface ExtensionDiagnostic {
	code: ExtensionDiagnosticCode;
	/** The extension the problem belongs to (its path or the name it was added under). */
	source: string;
	/** A sentence naming the extension, and for conflicts both extensions. */
	message: string;
	/** For `handler_failed`: the event the handler was handling. */
	event?: ExtensionEventType;
	/** For `tool_conflict`: the tool name. */
	toolName?: string;
	/** What was thrown, when something was. */
	error?: unknown;
}

/** Receives every diagnostic as it happens. A throwing listener is ignored. */
export type ExtensionErrorListener = (diagnostic: ExtensionDiagnostic) => void;

/** What `onToolsChanged` listeners receive. */
export interface ToolsChangedEvent {
	/** The extension that registered or withdrew the tools. */
	source: string;
	/** Names that were added or replaced (conflicting names that were ignored are left out). */
	toolNames: string[];
	/** Names the extension withdrew with `unregisterTool`. */
	removedToolNames: string[];
	/** Why they were withdrawn, as the extension said (for the error a later call to them gets). */
	reason?: string;
}

/**
 * Told when extension tools were registered, replaced or withdrawn; a session refreshes its tool
 * registry. May not throw (ignored).
 */
export type ToolsChangedListener = (event: ToolsChangedEvent) => void;

/**
 * Provides nested tool calls to `ExtensionToolContext`; a session binds one with `runner.setToolHost`.
 * Until then `ctx.tools` is empty and `ctx.executeTool` resolves to an `isError` outcome.
 */
export interface ExtensionToolHost {
	/** The tools `ctx.executeTool` can reach right now (read at call time). */
	getCallableTools(): readonly AgentTool[];
	/**
	 * Runs `name` as a nested call of `caller` through the full pipeline; the nested call's identity is
	 * `caller.child()` (its id `<caller>/<n>`). Should never reject for a tool failure; if it rejects
	 * anyway, the caller receives an `isError` outcome with the message.
	 */
	executeTool(
		caller: ToolCallIdentity,
		name: string,
		args: unknown,
		options: ExecuteToolOptions,
	): Promise<AgentToolCallOutcome>;
}

/**
 * Backs the `ExtensionAPI` tool actions and the run state of `ExtensionContext`; a session binds one with
 * `runner.setActionHost`. Methods may throw: the error reaches the extension that called the action.
 */
export interface ExtensionActionHost {
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	/** One tool's info as it is now. Default: looked up in `getAllTools()`. */
	getToolInfo?(name: string): ToolInfo | undefined;
	setActiveTools(names: string[]): void;
	refreshTools(): void;
	/** The model in use now. Default: the runner's `model` option. */
	getModel?(): Model | undefined;
	/** The signal of the run in progress, if any. */
	getSignal?(): AbortSignal | undefined;
	/** Aborts the run in progress. Default: does nothing. */
	abort?(): void;
}
