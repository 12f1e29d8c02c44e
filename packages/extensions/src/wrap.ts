import type { AgentTool, ToolCallIdentity } from "@gantry/agent";
import type { TSchema } from "@sinclair/typebox";
import type { ExtensionToolContext, ToolDefinition } from "./tool-definition.js";

/**
 * Builds the `ExtensionToolContext` for one call. `call` is where the call sits (the pipeline passes
 * it; a direct `execute` call may not), so nested calls are numbered below it.
 */
export type ToolContextFactory = (
	toolCallId: string,
	signal?: AbortSignal,
	call?: ToolCallIdentity,
) => ExtensionToolContext;

/**
 * Turns a `ToolDefinition` into the `AgentTool` the loop runs. Carries over `name`, `label`,
 * `description`, `parameters`, `outputSchema`, `constrainedSampling`, `prepareArguments` and
 * `executionMode`; `execute` receives the context from `ctxFactory(toolCallId, signal, call)`, or
 * `undefined` without a factory (builtins then use the `cwd` they were created with) — which is why a
 * definition's `ctx` parameter is typed `ExtensionToolContext | undefined`.
 */
export function wrapToolDefinition<TParams extends TSchema, TDetails>(
	definition: ToolDefinition<TParams, TDetails>,
	ctxFactory?: ToolContextFactory,
): AgentTool<TParams, TDetails> {
	const tool: AgentTool<TParams, TDetails> = {
		name: definition.name,
		label: definition.label,
		description: definition.description,
		parameters: definition.parameters,
		execute: (toolCallId, params, signal, onUpdate, call) =>
			definition.execute(toolCallId, params, signal, onUpdate, ctxFactory?.(toolCallId, signal, call)),
	};
	if (definition.outputSchema !== undefined) tool.outputSchema = definition.outputSchema;
	if (definition.constrainedSampling !== undefined) tool.constrainedSampling = definition.constrainedSampling;
	if (definition.prepareArguments !== undefined) tool.prepareArguments = definition.prepareArguments;
	if (definition.executionMode !== undefined) tool.executionMode = definition.executionMode;
	return tool;
}

/** The minimal `ToolDefinition` of an `AgentTool`; wrapping it again behaves like the original. */
export function createToolDefinitionFromAgentTool<TParams extends TSchema, TDetails>(
	tool: AgentTool<TParams, TDetails>,
): ToolDefinition<TParams, TDetails> {
	const definition: ToolDefinition<TParams, TDetails> = {
		name: tool.name,
		label: tool.label,
		description: tool.description,
		parameters: tool.parameters,
		execute: (toolCallId, params, signal, onUpdate) => tool.execute(toolCallId, params, signal, onUpdate),
	};
	if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
	if (tool.constrainedSampling !== undefined) definition.constrainedSampling = tool.constrainedSampling;
	if (tool.prepareArguments !== undefined) definition.prepareArguments = tool.prepareArguments;
	if (tool.executionMode !== undefined) definition.executionMode = tool.executionMode;
	return definition;
}
