import type { ToolResultMessage } from "@gantry/ai";
import { ToolCallIdentity } from "./tool-call-identity.js";
import {
	ABORTED_TEXT,
	completeToolCall,
	errorOutcome,
	findTool,
	isPrepared,
	type PreparedToolCall,
	preflightToolCall,
	runToolCallPipeline,
	type ToolCallEnvironment,
	type ToolUpdateSink,
} from "./tool-pipeline.js";
import { createToolResultMessage } from "./tool-result-message.js";
import type { AgentEvent, AgentToolCall, AgentToolCallOutcome } from "./types.js";

/** Where the loop sends events; a returned promise is awaited before the loop moves on. */
export type AgentEventSink = (event: AgentEvent) => void | Promise<void>;

export interface ToolBatchResult {
	/** One result message per tool call, in source order. */
	messages: ToolResultMessage[];
	/** True when every result of the batch asked to terminate. */
	terminate: boolean;
}

/**
 * Runs the tool calls of one assistant message. Sequential when `mode` is `"sequential"` or any tool of
 * the batch says so; otherwise preflight runs in source order and the allowed calls run concurrently.
 * Every call gets exactly one `tool_execution_start`, one `tool_execution_end` and one result message;
 * result messages are emitted and returned in source order. Never rejects.
 */
export async function executeToolBatch(
	toolCalls: readonly AgentToolCall[],
	environment: ToolCallEnvironment,
	mode: "parallel" | "sequential" | undefined,
	emit: AgentEventSink,
): Promise<ToolBatchResult> {
	const sequential =
		mode === "sequential" ||
		toolCalls.some((toolCall) => findTool(environment.tools, toolCall.name)?.executionMode === "sequential");
	return sequential
		? executeSequentially(toolCalls, environment, emit)
		: executeInParallel(toolCalls, environment, emit);
}

/** Answers calls that will never run (cut-off or failed responses) with `text`, with the usual events. */
export async function answerUnexecutedToolCalls(
	toolCalls: readonly AgentToolCall[],
	text: (toolCall: AgentToolCall) => string,
	emit: AgentEventSink,
): Promise<ToolResultMessage[]> {
	const messages: ToolResultMessage[] = [];
	for (const toolCall of toolCalls) {
		const outcome = errorOutcome(toolCall, text(toolCall));
		await emit(startEvent(toolCall));
		await emit(endEvent(outcome));
		const message = createToolResultMessage(outcome);
		await emitResultMessage(message, emit);
		messages.push(message);
	}
	return messages;
}

async function executeSequentially(
	toolCalls: readonly AgentToolCall[],
	environment: ToolCallEnvironment,
	emit: AgentEventSink,
): Promise<ToolBatchResult> {
	const messages: ToolResultMessage[] = [];
	let terminate = toolCalls.length > 0;
	const batch = ToolCallIdentity.batch(toolCalls);
	for (const toolCall of toolCalls) {
		let pending = emit(startEvent(toolCall));
		if (pending !== undefined) await pending;
		const identity = batch.root(toolCall.id);
		const outcome = await runToolCallPipeline(toolCall, identity, environment, updateSink(toolCall, emit));
		pending = emit(endEvent(outcome));
		if (pending !== undefined) await pending;
		const message = createToolResultMessage(outcome);
		const delivered = emitResultMessage(message, emit);
		if (delivered !== undefined) await delivered;
		messages.push(message);
		if (outcome.result.terminate !== true) terminate = false;
	}
	return { messages, terminate };
}

async function executeInParallel(
	toolCalls: readonly AgentToolCall[],
	environment: ToolCallEnvironment,
	emit: AgentEventSink,
): Promise<ToolBatchResult> {
	const count = toolCalls.length;
	const outcomes = new Array<AgentToolCallOutcome>(count);
	const prepared: (PreparedToolCall | undefined)[] = new Array(count);
	const batch = ToolCallIdentity.batch(toolCalls);
	// Preflight in source order, so permission prompts and their side effects happen in call order.
	for (let index = 0; index < count; index++) {
		const toolCall = toolCalls[index]!;
		let pending = emit(startEvent(toolCall));
		if (pending !== undefined) await pending;
		let preparation = preflightToolCall(toolCall, batch.root(toolCall.id), environment);
		if (preparation instanceof Promise) preparation = await preparation;
		if (isPrepared(preparation)) {
			prepared[index] = preparation;
		} else {
			outcomes[index] = preparation;
			pending = emit(endEvent(preparation));
			if (pending !== undefined) await pending;
		}
	}
	const running: Promise<void>[] = [];
	for (let index = 0; index < count; index++) {
		const call = prepared[index];
		if (call === undefined) continue;
		if (environment.signal?.aborted) {
			// Aborted during a later call's preflight: this one never starts either.
			const outcome = errorOutcome(call.toolCall, ABORTED_TEXT);
			outcomes[index] = outcome;
			const pending = emit(endEvent(outcome));
			if (pending !== undefined) await pending;
			continue;
		}
		running.push(runAndReport(call, index, outcomes, environment, emit));
	}
	if (running.length > 0) await Promise.all(running);

	const messages = new Array<ToolResultMessage>(count);
	let terminate = count > 0;
	for (let index = 0; index < count; index++) {
		const outcome = outcomes[index];
		if (outcome === undefined) throw new Error(`Tool call ${index} of the batch ended without an outcome`);
		const message = createToolResultMessage(outcome);
		const delivered = emitResultMessage(message, emit);
		if (delivered !== undefined) await delivered;
		messages[index] = message;
		if (outcome.result.terminate !== true) terminate = false;
	}
	return { messages, terminate };
}

async function runAndReport(
	call: PreparedToolCall,
	index: number,
	outcomes: AgentToolCallOutcome[],
	environment: ToolCallEnvironment,
	emit: AgentEventSink,
): Promise<void> {
	const outcome = await completeToolCall(call, environment, updateSink(call.toolCall, emit));
	outcomes[index] = outcome;
	const pending = emit(endEvent(outcome));
	if (pending !== undefined) await pending;
}

function updateSink(toolCall: AgentToolCall, emit: AgentEventSink): ToolUpdateSink {
	return (partialResult) =>
		emit({
			type: "tool_execution_update",
			toolCallId: toolCall.id,
			toolName: toolCall.name,
			args: toolCall.arguments,
			partialResult,
		});
}

function startEvent(toolCall: AgentToolCall): AgentEvent {
	return { type: "tool_execution_start", toolCallId: toolCall.id, toolName: toolCall.name, args: toolCall.arguments };
}

function endEvent(outcome: AgentToolCallOutcome): AgentEvent {
	const event: AgentEvent & { type: "tool_execution_end" } = {
		type: "tool_execution_end",
		toolCallId: outcome.toolCall.id,
		toolName: outcome.toolCall.name,
		result: outcome.result,
		isError: outcome.isError,
	};
	if (outcome.durationMs !== undefined) event.durationMs = outcome.durationMs;
	if (outcome.blocked) event.blocked = true;
	return event;
}

/** Emits the message events of a result; returns a promise only when the sink asked to be awaited. */
function emitResultMessage(message: ToolResultMessage, emit: AgentEventSink): void | Promise<void> {
	const started = emit({ type: "message_start", message });
	if (started !== undefined) return started.then(() => emit({ type: "message_end", message }));
	return emit({ type: "message_end", message });
}
