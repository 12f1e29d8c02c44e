import type { AgentToolCallOutcome } from "@gantry/agent";
import type { ExtensionToolContext, ToolExposure, ToolNamespace } from "@gantry/extensions";
import type { TSchema } from "@sinclair/typebox";

/** One tool as a script sees it. */
export interface CodemodeToolInfo {
	name: string;
	description: string;
	/** JSON Schema (TypeBox) of the arguments. */
	parameters: TSchema;
	/** When set, a call resolves to the result's `structuredContent` (if it carries one). */
	outputSchema?: TSchema;
	/** `deferred` tools stay callable and searchable but are left out of `ALL_TOOLS` and descriptions. */
	exposure: ToolExposure;
	namespace?: ToolNamespace;
}

/** What a script runs against: the callable tools and a way to call them. */
export interface CodemodeToolHost {
	/**
	 * The callable tools, read once when a script starts. The sandbox itself leaves out `codemode`
	 * and any `model-only` or `hidden` tool. May throw (the script then fails before it starts).
	 */
	list(): readonly CodemodeToolInfo[];
	/**
	 * Runs one tool call through the full pipeline (validation, hooks, permissions). Should resolve to
	 * an outcome for tool failures; a rejection is treated like an error outcome with its message.
	 * `signal` aborts when the script ends (finished, failed, timed out or aborted) with the call
	 * still running.
	 */
	call(name: string, args: unknown, signal: AbortSignal): Promise<AgentToolCallOutcome>;
}

/** What the session knows about a registered tool beyond its `AgentTool`. */
export interface CodemodeToolFacts {
	exposure: ToolExposure;
	/** Overrides the `AgentTool`'s own `outputSchema` when set. */
	outputSchema?: TSchema;
	namespace?: ToolNamespace;
}

/**
 * Looks up a tool's facts by name; `undefined` for a tool it does not know (then treated as
 * `direct`, with the `AgentTool`'s own `outputSchema`). Must not throw.
 */
export type CodemodeCatalog = (name: string) => CodemodeToolFacts | undefined;

/**
 * The host a `codemode` call uses by default: the callable tools of `ctx.tools` (facts from `catalog`)
 * and calls through `ctx.executeTool`, so nested calls get validation, hooks, permissions and records.
 */
export function createContextToolHost(ctx: ExtensionToolContext, catalog?: CodemodeCatalog): CodemodeToolHost {
	return {
		list: () =>
			ctx.tools.map((tool) => {
				const facts = catalog?.(tool.name);
				const info: CodemodeToolInfo = {
					name: tool.name,
					description: tool.description,
					parameters: tool.parameters,
					exposure: facts?.exposure ?? "direct",
				};
				const outputSchema = facts?.outputSchema ?? tool.outputSchema;
				if (outputSchema !== undefined) info.outputSchema = outputSchema;
				if (facts?.namespace !== undefined) info.namespace = facts.namespace;
				return info;
			}),
		call: (name, args, signal) => ctx.executeTool(name, args, { signal }),
	};
}

/** The tools a script may call: never `codemode` itself, nor tools other tools cannot reach. */
export function scriptCallableTools(tools: readonly CodemodeToolInfo[]): CodemodeToolInfo[] {
	return tools.filter(
		(tool) => tool.name !== "codemode" && tool.exposure !== "model-only" && tool.exposure !== "hidden",
	);
}
