import { EventStream, type ToolResultMessage, withoutUndefined } from "@gantry/ai";
import { streamAssistantResponse } from "./assistant-response.js";
import { GantryAgentError } from "./errors.js";
import { type AgentEventSink, answerUnexecutedToolCalls, executeToolBatch } from "./tool-batch.js";
import { ABORTED_TEXT } from "./tool-pipeline.js";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentMessage, AgentTool, AgentToolCall } from "./types.js";

/** The answer to each tool call of a response cut off by the output-token limit. */
export function lengthNotExecutedText(toolCall: AgentToolCall): string {
	return (
		`Tool call ${toolCall.name} was not executed: your response was cut off by the output token limit, ` +
		"so its arguments may be incomplete. Issue the call again (split very large arguments into smaller calls)."
	);
}

function failedNotExecutedText(toolCall: AgentToolCall): string {
	return `Tool call ${toolCall.name} was not executed: the model response ended with an error.`;
}

/**
 * Starts a run with new prompt messages: emits them, then requests the model and runs its tool calls
 * until the model stops. Returns the run's events; `result()` resolves to the prompts followed by every
 * message the run added, in order. Never rejects: model failures end the run with the failed assistant
 * message, tool failures become error results.
 *
 * `context.messages` is copied; `context.systemPrompt`, `context.tools` and `config.model` are read at
 * every model request.
 *
 * @example
 * const events = agentLoop([{ role: "user", content: "Hi", timestamp: Date.now() }], { messages: [], tools }, { model });
 * for await (const event of events) if (event.type === "message_end") console.log(event.message);
 * const messages = await events.result();
 */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
): EventStream<AgentEvent, AgentMessage[]> {
	const events = createAgentEventStream();
	void runAgentLoop(prompts, context, config, (event) => events.push(event), signal);
	return events;
}

/**
 * Continues from the current context without a new prompt (retries, or after tool results were added).
 * Throws `GantryAgentError` (`nothing_to_continue`, `cannot_continue`) when the context is empty or ends
 * with an assistant message; otherwise behaves like `agentLoop`.
 */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
): EventStream<AgentEvent, AgentMessage[]> {
	assertContinuable(context);
	const events = createAgentEventStream();
	void runAgentLoop(undefined, context, config, (event) => events.push(event), signal);
	return events;
}

export function assertContinuable(context: AgentContext): void {
	const last = context.messages.at(-1);
	if (last === undefined) throw new GantryAgentError("nothing_to_continue", "Cannot continue: there are no messages");
	if ((last as { role?: unknown }).role === "assistant") {
		throw new GantryAgentError("cannot_continue", "Cannot continue from an assistant message: add a user message");
	}
}

function createAgentEventStream(): EventStream<AgentEvent, AgentMessage[]> {
	return new EventStream<AgentEvent, AgentMessage[]>(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
	);
}

/**
 * The loop itself, with events sent to `emit` (awaited when it returns a promise). `prompts` undefined
 * continues from `context`. Resolves to the run's messages; never rejects.
 */
export async function runAgentLoop(
	prompts: AgentMessage[] | undefined,
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
): Promise<AgentMessage[]> {
	const newMessages: AgentMessage[] = [];
	const messages = context.messages.slice();
	try {
		let pending = emit({ type: "agent_start" });
		if (pending !== undefined) await pending;
		pending = emit({ type: "turn_start" });
		if (pending !== undefined) await pending;
		for (const prompt of prompts ?? []) {
			pending = addMessage(prompt, messages, newMessages, emit);
			if (pending !== undefined) await pending;
		}
		await runTurns(messages, newMessages, context, config, emit, signal);
	} catch {
		// Only a throwing event sink gets here; the run still ends with agent_end.
	}
	await emit({ type: "agent_end", messages: newMessages });
	return newMessages;
}

async function runTurns(
	messages: AgentMessage[],
	newMessages: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
): Promise<void> {
	let pending = config.getSteeringMessages ? await poll(config.getSteeringMessages) : [];
	let firstTurn = true;
	while (true) {
		let hasMoreToolCalls = true;
		while (hasMoreToolCalls || pending.length > 0) {
			if (firstTurn) {
				firstTurn = false;
			} else {
				const started = emit({ type: "turn_start" });
				if (started !== undefined) await started;
			}
			for (const message of pending) {
				const added = addMessage(message, messages, newMessages, emit);
				if (added !== undefined) await added;
			}
			pending = [];

			const { message, tools } = await streamAssistantResponse(messages, context, config, emit, signal);
			messages.push(message);
			newMessages.push(message);
			const toolCalls = message.content.filter((block): block is AgentToolCall => block.type === "toolCall");

			let toolResults: ToolResultMessage[] = [];
			const failed = message.stopReason === "error" || message.stopReason === "aborted";
			if (failed) {
				// Even a failed response's calls are answered: providers reject unanswered tool calls.
				const text = message.stopReason === "aborted" ? () => ABORTED_TEXT : failedNotExecutedText;
				toolResults = await answerUnexecutedToolCalls(toolCalls, text, emit);
			} else if (message.stopReason === "length" && toolCalls.length > 0) {
				toolResults = await answerUnexecutedToolCalls(toolCalls, lengthNotExecutedText, emit);
				hasMoreToolCalls = true;
			} else if (toolCalls.length > 0) {
				const environment = withoutUndefined({
					tools,
					assistantMessage: message,
					context: withoutUndefined({ systemPrompt: context.systemPrompt, messages, tools: tools as AgentTool[] }),
					resolveTool: config.resolveTool,
					beforeToolCall: config.beforeToolCall,
					afterToolCall: config.afterToolCall,
					signal,
				});
				const batch = await executeToolBatch(toolCalls, environment, config.toolExecution, emit);
				toolResults = batch.messages;
				hasMoreToolCalls = !batch.terminate;
			} else {
				hasMoreToolCalls = false;
			}
			for (const result of toolResults) {
				messages.push(result);
				newMessages.push(result);
			}
			const ended = emit({ type: "turn_end", message, toolResults });
			if (ended !== undefined) await ended;
			if (failed || signal?.aborted) return;
			pending = config.getSteeringMessages ? await poll(config.getSteeringMessages) : [];
		}
		const followUps = config.getFollowUpMessages ? await poll(config.getFollowUpMessages) : [];
		if (followUps.length === 0) return;
		pending = followUps;
	}
}

/** Emits a message's start and end and records it; a promise only when the sink asked to be awaited. */
function addMessage(
	message: AgentMessage,
	messages: AgentMessage[],
	newMessages: AgentMessage[],
	emit: AgentEventSink,
): void | Promise<void> {
	messages.push(message);
	newMessages.push(message);
	const started = emit({ type: "message_start", message });
	if (started !== undefined) return started.then(() => emit({ type: "message_end", message }));
	return emit({ type: "message_end", message });
}

/** Queue callbacks must not throw; if one does, it counts as "no messages" so the run can finish. */
async function poll(source: () => Promise<AgentMessage[]>): Promise<AgentMessage[]> {
	try {
		return (await source()) ?? [];
	} catch {
		return [];
	}
}
