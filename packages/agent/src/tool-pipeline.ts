import { ABORTED_TEXT } from "./abort.js";
import { errorText } from "./errors.js";
import { boundErrorText } from "./text-limits.js";
import { ToolCallIdentity } from "./tool-call-identity.js";
import { mergeToolResult } from "./tool-result-merge.js";
import type {
	AgentTool,
	AgentToolCall,
	AgentToolCallOutcome,
	AgentToolResult,
	AgentToolUpdateCallback,
	RunToolCallOptions,
} from "./types.js";
import { copyArguments, validateArguments } from "./validation.js";

// The whole path of one tool call, in order:
//   1. lookup            the declared tool, then `resolveTool` (call-time lookup)     preflightToolCall
//   2. prepareArguments  on a copy, so the transcript keeps what the model sent        preflightToolCall
//   3. validation        against `parameters` (coercion, defaults)                   preflightToolCall
//   4. beforeToolCall    may block; a throw blocks (fail closed); then args are fixed preflightToolCall
//   5. execute           timed; updates delivered until it settles, later ones dropped executeToolCall
//   6. afterToolCall     merged field by field (`mergeToolResult`)                    finishToolCall
//   7. the outcome       never a rejection: every failure is an `isError` outcome
// Batches (tool-batch.ts) run steps 1–4 and 5–7 of each call through these functions; `runToolCall`
// and nested calls run all of them through `runToolCallPipeline`.

export { ABORTED_TEXT } from "./abort.js";
/** The text of a call that `beforeToolCall` blocked without giving a reason. */
export const BLOCKED_TEXT = "Tool execution was blocked";

/** What the pipeline needs besides the call itself. */
export type ToolCallEnvironment = Omit<RunToolCallOptions, "onUpdate" | "identity">;

/** A call that passed steps 1–4: ready for `execute`. */
export interface PreparedToolCall {
	toolCall: AgentToolCall;
	identity: ToolCallIdentity;
	tool: AgentTool;
	/** The validated arguments `execute` receives (hooks may have changed them in place). */
	args: unknown;
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
	const result: AgentToolResult = { content: [{ type: "text", text: boundErrorText(text) }] };
	if (terminate === true) result.terminate = true;
	return { toolCall, result, isError: true };
}

/** The outcome of a call `beforeToolCall` blocked (or failed on, which blocks). */
function blockedOutcome(toolCall: AgentToolCall, text: string, terminate?: boolean): AgentToolCallOutcome {
	return { ...errorOutcome(toolCall, text, terminate), blocked: true };
}

/**
 * Steps 1–4. Returns the prepared call, or the error outcome that answers it (also when the signal is
 * aborted before or while `beforeToolCall` decides). Synchronous unless a hook has to be awaited.
 */
export function preflightToolCall(
	toolCall: AgentToolCall,
	identity: ToolCallIdentity,
	environment: ToolCallEnvironment,
): PreparedToolCall | AgentToolCallOutcome | Promise<PreparedToolCall | AgentToolCallOutcome> {
	if (environment.signal?.aborted) return errorOutcome(toolCall, ABORTED_TEXT);
	let tool: AgentTool | undefined;
	let args: unknown;
	try {
		const declared = findTool(environment.tools, toolCall.name);
		const resolved =
			environment.resolveTool === undefined ? declared : environment.resolveTool(toolCall.name, declared);
		if (typeof resolved === "string") return errorOutcome(toolCall, resolved);
		if (resolved === undefined) return errorOutcome(toolCall, `Tool ${toolCall.name} not found`);
		tool = resolved;
		const raw = tool.prepareArguments ? tool.prepareArguments(copyArguments(toolCall.arguments)) : toolCall.arguments;
		args = validateArguments(tool, raw, toolCall);
	} catch (error) {
		return errorOutcome(toolCall, errorText(error));
	}
	const prepared: PreparedToolCall = { toolCall, identity, tool, args };
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
		if (decision?.block === true) return blockedOutcome(toolCall, decision.reason || BLOCKED_TEXT, decision.terminate);
		// The arguments are fixed now: the hook approved these, and a reference it kept (or a microtask it
		// queued) can no longer change what runs.
		prepared.args = copyArguments(prepared.args);
	} catch (error) {
		// A permission check that fails must not let the call through.
		return blockedOutcome(toolCall, errorText(error));
	}
	// Aborted while the hook was deciding: the call never starts.
	return environment.signal?.aborted ? errorOutcome(toolCall, ABORTED_TEXT) : prepared;
}

/** Steps 5–7 for a prepared call. Never rejects. */
export function completeToolCall(
	prepared: PreparedToolCall,
	environment: ToolCallEnvironment,
	sink: ToolUpdateSink | undefined,
): Promise<AgentToolCallOutcome> {
	return executeToolCall(prepared, environment, sink);
}

/** Steps 1–7: one call from lookup to outcome (what `runToolCall` and nested calls use). Never rejects. */
export async function runToolCallPipeline(
	toolCall: AgentToolCall,
	identity: ToolCallIdentity,
	environment: ToolCallEnvironment,
	sink: ToolUpdateSink | undefined,
): Promise<AgentToolCallOutcome> {
	let preparation = preflightToolCall(toolCall, identity, environment);
	if (preparation instanceof Promise) preparation = await preparation;
	if (!isPrepared(preparation)) return preparation;
	return completeToolCall(preparation, environment, sink);
}

/** A call whose `execute` settled (its result not yet passed through `afterToolCall`). */
interface ExecutedToolCall extends PreparedToolCall {
	result: AgentToolResult;
	isError: boolean;
	durationMs: number;
}

/**
 * Step 5, then 6–7: runs `execute`, timing it with `performance.now()`. Partial results reach `sink`
 * until the tool's promise settles; later ones are dropped; promises the sink returned are awaited before
 * this resolves. Never rejects: a throw (or a malformed result) becomes an error result.
 */
async function executeToolCall(
	prepared: PreparedToolCall,
	environment: ToolCallEnvironment,
	sink: ToolUpdateSink | undefined,
): Promise<AgentToolCallOutcome> {
	const { toolCall, tool } = prepared;
	const { signal } = environment;
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
		result = await tool.execute(toolCall.id, prepared.args, signal, onUpdate, prepared.identity);
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
	// Steps 6–7 here rather than in a `.then` of this call: one promise and one closure less a call.
	if (environment.afterToolCall === undefined) return { toolCall, result, isError, durationMs };
	// Fields named one by one: spreading `prepared` cost about 3.5 µs a call (V8 copies it slowly once
	// `applyBeforeToolCall` has replaced its `args`), more than the rest of the pipeline together.
	const executed = { toolCall, identity: prepared.identity, tool, args: prepared.args, result, isError, durationMs };
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
		return {
			toolCall,
			result: mergeToolResult(result, override),
			isError: override.isError ?? executed.isError,
			durationMs,
		};
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
		const identity = options.identity ?? ToolCallIdentity.root(toolCall.id);
		return await runToolCallPipeline(toolCall, identity, options, options.onUpdate);
	} catch (error) {
		return errorOutcome(toolCall, errorText(error));
	}
}

function errorResult(text: string): AgentToolResult {
	return { content: [{ type: "text", text: boundErrorText(text) }] };
}
