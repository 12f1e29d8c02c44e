import type { AssistantMessage, FauxModel, FauxTurnSource, ToolResultMessage, UserMessage } from "@gantry/ai";
import {
	createAssistantMessage,
	createAssistantMessageEventStream,
	createFauxModel,
	type EventStream,
	type Model,
	type stream,
} from "@gantry/ai";
import { type TSchema, Type } from "@sinclair/typebox";
import {
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	type AgentTool,
	type AgentToolResult,
	type AgentToolUpdateCallback,
	agentLoop,
} from "../src/index.js";

export function userMessage(text: string): UserMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export function text(value: string): AgentToolResult {
	return { content: [{ type: "text", text: value }] };
}

type Execute = (
	toolCallId: string,
	params: Record<string, unknown>,
	signal?: AbortSignal,
	onUpdate?: AgentToolUpdateCallback,
) => Promise<AgentToolResult>;

/** A tool with a permissive schema unless one is given. */
export function makeTool(
	name: string,
	execute: Execute,
	extra: Partial<Omit<AgentTool, "execute" | "name">> & { parameters?: TSchema } = {},
): AgentTool {
	return {
		name,
		label: name,
		description: `The ${name} tool`,
		parameters: Type.Object({}, { additionalProperties: true }),
		...extra,
		execute: execute as AgentTool["execute"],
	};
}

export function assistantMessageFor(model: Model): AssistantMessage {
	return createAssistantMessage(model);
}

export async function collect(
	events: EventStream<AgentEvent, AgentMessage[]>,
): Promise<{ events: AgentEvent[]; messages: AgentMessage[] }> {
	const seen: AgentEvent[] = [];
	for await (const event of events) seen.push(event);
	return { events: seen, messages: await events.result() };
}

export function toolResults(messages: AgentMessage[]): ToolResultMessage[] {
	return messages.filter(
		(message): message is ToolResultMessage => (message as ToolResultMessage).role === "toolResult",
	);
}

/** The text of a tool result; a missing result (`undefined`) fails the test here rather than passing unread. */
export function resultText(message: { content: AgentToolResult["content"] } | undefined): string {
	if (message === undefined) throw new Error("expected a tool result, found none");
	return message.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("");
}

export function eventTypes(events: AgentEvent[]): string[] {
	return events.map((event) => {
		if (event.type === "message_start" || event.type === "message_end") {
			return `${event.type}:${(event.message as { role: string }).role}`;
		}
		if (event.type.startsWith("tool_execution")) return `${event.type}:${(event as { toolCallId: string }).toolCallId}`;
		return event.type;
	});
}

export interface LoopRun {
	events: AgentEvent[];
	messages: AgentMessage[];
	model: FauxModel;
}

/** Runs one prompt through `agentLoop` against a faux model playing `turns`. */
export async function runLoop(
	turns: FauxTurnSource[],
	tools: AgentTool[],
	config: Partial<AgentLoopConfig> = {},
	signal?: AbortSignal,
): Promise<LoopRun> {
	const model = createFauxModel(turns);
	const { events, messages } = await collect(
		agentLoop([userMessage("go")], { messages: [], tools }, { model, ...config }, signal),
	);
	return { events, messages, model };
}

/** The tool result messages the model saw in request `index`. */
export function requestToolResults(model: FauxModel, index: number): ToolResultMessage[] {
	return toolResults(model.calls[index]?.messages ?? []);
}

export function eventsOfType<TType extends AgentEvent["type"]>(
	events: AgentEvent[],
	type: TType,
): Extract<AgentEvent, { type: TType }>[] {
	return events.filter((event): event is Extract<AgentEvent, { type: TType }> => event.type === type);
}

/** A stream function that answers request N with `responses[N]` in one step (for provider-only fields). */
export function scriptedStream(responses: Partial<AssistantMessage>[]): typeof stream {
	let next = 0;
	return (model, _context, _options) => {
		const events = createAssistantMessageEventStream();
		const message: AssistantMessage = { ...createAssistantMessage(model), ...responses[next++] };
		events.push({ type: "start", partial: message });
		if (message.stopReason === "error" || message.stopReason === "aborted") {
			events.push({ type: "error", reason: message.stopReason, error: message });
		} else {
			events.push({ type: "done", reason: message.stopReason, message });
		}
		events.end();
		return events;
	};
}
