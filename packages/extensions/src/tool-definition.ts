import type { AgentTool, AgentToolCallOutcome, AgentToolResult, AgentToolUpdateCallback } from "@gantry/agent";
import type { ConstrainedSampling, Model } from "@gantry/ai";
import type { Static, TSchema } from "@sinclair/typebox";
import type { Theme } from "./theme.js";

/**
 * How the model reaches a tool.
 * - `direct` (default): active on registration, declared to the model, callable by other tools while active.
 * - `model-only`: declared like `direct`, but never callable by other tools.
 * - `codemode`: not declared unless explicitly activated; always callable (codemode scripts list it).
 * - `deferred`: like `codemode`, but not listed to codemode; found through `tool_search`.
 * - `hidden`: registered but unreachable; activating it does nothing (how a tool is withdrawn).
 */
export type ToolExposure = "direct" | "model-only" | "codemode" | "deferred" | "hidden";

/** Hints about a tool's behaviour, with MCP's semantics. None of them is enforced by the loop. */
export interface ToolAnnotations {
	/** The tool does not change its environment. */
	readOnlyHint?: boolean;
	/** The tool may destroy or overwrite data (meaningful when not read-only). */
	destructiveHint?: boolean;
	/** Calling it twice with the same arguments has no further effect. */
	idempotentHint?: boolean;
	/** The tool talks to the outside world (network, processes, other systems). */
	openWorldHint?: boolean;
	/**
	 * Gantry's word, not MCP's: how far the hints above may be believed, set by whoever registers a tool
	 * whose hints come from a program nobody vetted. Unset: the tool's own code wrote them, taken as
	 * written. `"readOnlyHint"`: only `readOnlyHint: true` lets a call run without asking (an MCP server
	 * you configured); `"none"`: no hint does, so calls ask until a rule allows them (an MCP server from a
	 * project's `.mcp.json`).
	 */
	hintTrust?: "readOnlyHint" | "none";
}

/** A group of tools, e.g. the tools of one MCP server. */
export interface ToolNamespace {
	name: string;
	aliases?: string[];
	description?: string;
	/** Extra guidance for the model when the namespace's tools are in use. */
	instructions?: string;
}

/** The tool sets at the moment the active set changed, as `prepareLoadout` sees them. */
export interface ToolLoadout {
	/** Active tools, in declaration order (before hidden declarations are removed). */
	declared: readonly AgentTool[];
	/** Tools reachable through `ctx.executeTool`. */
	callable: readonly AgentTool[];
	registered: readonly AgentTool[];
	getExposure(name: string): ToolExposure | undefined;
	getNamespace(name: string): ToolNamespace | undefined;
	getPromptGuidelines(name: string): readonly string[];
}

/** What `prepareLoadout` may change about the next requests. */
export interface ToolLoadoutChanges {
	/** Description overrides by tool name (applied to copies; the definitions are untouched). */
	descriptions?: Record<string, string>;
	/** Tools that stay active and callable but are left out of the request's declarations. */
	hiddenDeclarations?: string[];
}

/** Options of a nested call made with `ctx.executeTool`. */
export interface ExecuteToolOptions {
	/**
	 * Aborts the nested call (the caller's own signal is a good default). `undefined` is accepted because
	 * `execute` receives its signal as `AbortSignal | undefined`; it means the same as leaving it out.
	 */
	signal?: AbortSignal | undefined;
	/** Receives the nested tool's partial results; `undefined` means the same as leaving it out. */
	onUpdate?: AgentToolUpdateCallback | undefined;
}

/** What a tool's `execute` receives as its fifth argument when it runs inside a session. */
export interface ExtensionToolContext {
	cwd: string;
	signal?: AbortSignal;
	model?: Model;
	hasUI: boolean;
	/** The callable tools, read at call time. */
	readonly tools: readonly AgentTool[];
	/**
	 * Runs another callable tool through the full pipeline (validation, hooks, permissions).
	 * Never rejects for a tool failure: the outcome says `isError`.
	 */
	executeTool(name: string, args: unknown, options?: ExecuteToolOptions): Promise<AgentToolCallOutcome>;
}

/**
 * The application-level definition of a tool. Wrap it with `wrapToolDefinition` to get the `AgentTool`
 * the loop runs; register it with `api.registerTool` from an extension.
 */
export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown> {
	/** The name the model calls; `^[a-zA-Z0-9_-]{1,64}$`. */
	name: string;
	/** Short label for UIs. */
	label: string;
	/** What the model reads about the tool. */
	description: string;
	/** One line in the system prompt's "Available tools" list; tools without one are not listed there. */
	promptSnippet?: string;
	/** Bullets appended to the prompt's guidelines while the tool is declared (trimmed, de-duplicated). */
	promptGuidelines?: string[];
	/** TypeBox object schema of the arguments; sent to providers as JSON Schema. */
	parameters: TParams;
	/** Ask the provider for schema-constrained arguments. Default: none. */
	constrainedSampling?: ConstrainedSampling;
	/** `"default"`: the UI draws the standard frame around the renderers' output; `"self"`: the tool draws it all. */
	renderShell?: "default" | "self";
	/** Turns legacy argument shapes into the current one, before validation. May throw. */
	prepareArguments?: (raw: unknown) => unknown;
	/** JSON Schema of `structuredContent` on success. */
	outputSchema?: TSchema;
	/** How the model reaches the tool. Default `"direct"`. */
	exposure?: ToolExposure;
	/** Grouping, e.g. one MCP server. */
	namespace?: ToolNamespace;
	/** Which other tools a call with this input can reach through `ctx.executeTool`. */
	reachesTools?: (input: unknown) => "all" | string[];
	annotations?: ToolAnnotations;
	/** Activate on registration. Default true for `direct` and `model-only`, false otherwise. */
	defaultActive?: boolean;
	/** Called whenever the active set changes, for active tools. May throw (reported and ignored). */
	prepareLoadout?: (loadout: ToolLoadout) => ToolLoadoutChanges | undefined;
	/** `"sequential"` makes batches containing this tool run one call at a time. */
	executionMode?: "sequential" | "parallel";
	/**
	 * Does the work. Throw to report failure (the loop turns it into an error result). `ctx` is the
	 * session's context; it is undefined when the tool was wrapped without a context factory (a tool
	 * that needs it should throw a clear error then).
	 */
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx: ExtensionToolContext | undefined,
	): Promise<AgentToolResult<TDetails>>;
	/** Terminal text (ANSI allowed) describing a call. */
	renderCall?(args: Static<TParams>, theme: Theme): string;
	/** Terminal text (ANSI allowed) of a result; `isPartial` while the tool still runs. */
	renderResult?(
		result: AgentToolResult<TDetails>,
		options: { expanded: boolean; isPartial: boolean },
		theme: Theme,
	): string;
}

/** Identity function that lets TypeScript infer `params` in `execute` from `parameters`. */
export function defineTool<TParams extends TSchema, TDetails = unknown>(
	definition: ToolDefinition<TParams, TDetails>,
): ToolDefinition<TParams, TDetails> {
	return definition;
}
