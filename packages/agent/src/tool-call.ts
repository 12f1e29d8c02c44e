import { errorText } from "./errors.js";
import type {
	AgentTool,
	AgentToolCall,
	AgentToolCallOutcome,
	AgentToolResult,
	AgentToolUpdateCallback,
	RunToolCallOptions,
} from "./types.js";
import { copyArguments, validateArguments } from "./validation.js";

/** The text of a call that was not started because its signal was aborted. */
export const ABORTED_TEXT = "Operation aborted";
/** The text of a call that `beforeToolCall` blocked without giving a reason. */
export const BLOCKED_TEXT = "Tool execution was blocked";

/** What the pipeline needs besides the call itself (`RunToolCallOptions` without `onUpdate`). */
export type ToolCallEnvironment = Omit<RunToolCallOptions, "onUpdate">;

/** A call that passed lookup, validation and `beforeToolCall`: ready for `execute`. */
export interface PreparedToolCall {
	toolCall: AgentToolCall;
	tool: AgentTool;
	/** The validated arguments `execute` receives (hooks may have changed them in place). */
	args: unknown;
}

/** A call whose `execute` settled (its result not yet passed through `afterToolCall`). */
export interface ExecutedToolCall extends PreparedToolCall {
	result: AgentToolResult;
	isError: boolean;
	durationMs: number;
}

/** Receives partial results; may return a promise that must settle before the call's end is reported. */
export type ToolUpdateSink = (partial: AgentToolResult) => void | Promise<void>;

export function isPrepared(preparation: PreparedToolCall | AgentToolCallOutcome): preparation is PreparedToolCall {
	return (preparation as PreparedToolCall).tool !== undefined;
}

export function findTool(tools: readonly AgentTool[] | undefined, name: string): AgentTool | undefined {
	if (tools === undefined) return undefined;
	for (const tool of tools) if (tool.name === name) return tool;
	return undefined;
}

/** An outcome for a call that failed before or instead of running: no `durationMs`. */
export function errorOutcome(toolCall: AgentToolCall, text: string, terminate?: boolean): AgentToolCallOutcome {
	const result: AgentToolResult = { content: [{ type: "text", text }] };
	if (terminate === true) result.terminate = true;
	return { toolCall, result, isError: true };
}

/**
 * Lookup → `prepareArguments` → validation → `beforeToolCall`. Returns the prepared call, or the
 * error outcome that answers it. Synchronous unless a `beforeToolCall` hook has to be awaited.
 */
export function prepareToolCall(
	toolCall: AgentToolCall,
	environment: ToolCallEnvironment,
): PreparedToolCall | AgentToolCallOutcome | Promise<PreparedToolCall | AgentToolCallOutcome> {
	let tool: AgentTool | undefined;
	let args: unknown;
	try {
		const declared = findTool(environment.tools, toolCall.name);
		const resolved =
			environment.resolveTool === undefined ? declared : environment.resolveTool(toolCall.name, declared);
		if (typeof resolved === "string") return errorOutcome(toolCall, resolved);
		if (resolved === undefined) return errorOutcome(toolCall, `Tool ${toolCall.name} not found`);
		tool = resolved;
		// prepareArguments gets a copy: the transcript keeps the arguments the model actually sent.
		const raw = tool.prepareArguments ? tool.prepareArguments(copyArguments(toolCall.arguments)) : toolCall.arguments;
		args = validateArguments(tool, raw, toolCall);
	} catch (error) {
		return errorOutcome(toolCall, errorText(error));
	}
	const prepared: PreparedToolCall = { toolCall, tool, args };
	return environment.beforeToolCall === undefined ? prepared : applyBeforeToolCall(prepared, environment);
}

async function applyBeforeToolCall(
	prepared: PreparedToolCall,
	environment: ToolCallEnvironment,
): Promise<PreparedToolCall | AgentToolCallOutcome> {
	const { toolCall } = prepared;
	try {
		const decision = await environment.beforeToolCall!(
			{ assistantMessage: environment.assistantMessage, toolCall, args: prepared.args, context: environment.context },
			environment.signal,
		);
		if (decision?.block === true) return errorOutcome(toolCall, decision.reason || BLOCKED_TEXT, decision.terminate);
		return prepared;
	} catch (error) {
		// A permission check that fails must not let the call through.
		return errorOutcome(toolCall, errorText(error));
	}
}

/**
 * Runs `execute`, timing it with `performance.now()`. Partial results reach `sink` until the tool's
 * promise settles; later ones are dropped; promises the sink returned are awaited before this resolves.
 * Never rejects: a throw (or a malformed result) becomes an error result.
 */
export async function executePreparedToolCall(
	prepared: PreparedToolCall,
	signal: AbortSignal | undefined,
	sink: ToolUpdateSink | undefined,
): Promise<ExecutedToolCall> {
	const { toolCall, tool } = prepared;
	let settled = false;
	let deliveries: Promise<void>[] | undefined;
	let onUpdate: AgentToolUpdateCallback | undefined;
	if (sink !== undefined) {
		onUpdate = (partial) => {
			if (settled) return;
			try {
				const delivery = sink(partial);
				if (delivery === undefined) return;
				if (deliveries === undefined) deliveries = [delivery];
				else deliveries.push(delivery);
			} catch {
				// A failing observer must not fail the tool.
			}
		};
	}
	let result: AgentToolResult;
	let isError: boolean;
	const start = performance.now();
	try {
		result = await tool.execute(toolCall.id, prepared.args, signal, onUpdate);
		if (typeof result !== "object" || result === null || !Array.isArray(result.content)) {
			result = errorResult(`Tool ${tool.name} returned an invalid result (expected an object with a content array)`);
			isError = true;
		} else {
			isError = result.isError === true;
		}
	} catch (error) {
		result = errorResult(errorText(error));
		isError = true;
	}
	const durationMs = performance.now() - start;
	settled = true;
	if (deliveries !== undefined) await Promise.allSettled(deliveries);
	return { toolCall, tool, args: prepared.args, result, isError, durationMs };
}

/** Applies `afterToolCall` (field by field, no deep merge). Synchronous when there is no hook. */
export function finalizeToolCall(
	executed: ExecutedToolCall,
	environment: ToolCallEnvironment,
): AgentToolCallOutcome | Promise<AgentToolCallOutcome> {
	if (environment.afterToolCall === undefined) {
		return {
			toolCall: executed.toolCall,
			result: executed.result,
			isError: executed.isError,
			durationMs: executed.durationMs,
		};
	}
	return applyAfterToolCall(executed, environment);
}

async function applyAfterToolCall(
	executed: ExecutedToolCall,
	environment: ToolCallEnvironment,
): Promise<AgentToolCallOutcome> {
	const { toolCall, result, durationMs } = executed;
	try {
		const override = await environment.afterToolCall!(
			{
				assistantMessage: environment.assistantMessage,
				toolCall,
				args: executed.args,
				context: environment.context,
				result,
				isError: executed.isError,
			},
			environment.signal,
		);
		if (override === undefined || override === null) return { toolCall, result, isError: executed.isError, durationMs };
		const merged: AgentToolResult = { ...result };
		if (override.content !== undefined) {
			merged.content = override.content;
			// Structured content that no longer matches the rewritten text must not survive it.
			if (override.structuredContent === undefined) delete merged.structuredContent;
		}
		if (override.structuredContent !== undefined) merged.structuredContent = override.structuredContent;
		if (override.details !== undefined) merged.details = override.details;
		if (override.usage !== undefined) merged.usage = override.usage;
		if (override.terminate !== undefined) merged.terminate = override.terminate;
		if (override.isError !== undefined) merged.isError = override.isError;
		return { toolCall, result: merged, isError: override.isError ?? executed.isError, durationMs };
	} catch (error) {
		return { toolCall, result: errorResult(errorText(error)), isError: true, durationMs };
	}
}

/**
 * Runs one tool call through the whole pipeline (lookup, `prepareArguments`, validation,
 * `beforeToolCall`, `execute`, `afterToolCall`) without emitting events or building a message.
 * Never rejects for a tool failure: every failure is an outcome with `isError: true`.
 *
 * @example
 * const outcome = await runToolCall(
 *   { type: "toolCall", id: "call_1", name: "add", arguments: { a: 1, b: 2 } },
 *   { tools: [addTool], assistantMessage, context: { messages: [] } },
 * );
 */
export async function runToolCall(toolCall: AgentToolCall, options: RunToolCallOptions): Promise<AgentToolCallOutcome> {
	try {
		if (options.signal?.aborted) return errorOutcome(toolCall, ABORTED_TEXT);
		let preparation = prepareToolCall(toolCall, options);
		if (preparation instanceof Promise) preparation = await preparation;
		if (!isPrepared(preparation)) return preparation;
		if (options.signal?.aborted) return errorOutcome(toolCall, ABORTED_TEXT);
		const executed = await executePreparedToolCall(preparation, options.signal, options.onUpdate);
		return await finalizeToolCall(executed, options);
	} catch (error) {
		return errorOutcome(toolCall, errorText(error));
	}
}

function errorResult(text: string): AgentToolResult {
	return { content: [{ type: "text", text }] };
}
