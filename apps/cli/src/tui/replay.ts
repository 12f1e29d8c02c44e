import type { AgentMessage } from "@gantry/agent";
import { type AssistantMessage, type ToolResultMessage, type UserMessage, withoutUndefined } from "@gantry/ai";
import type { Theme } from "@gantry/extensions";
import { MarkdownLines } from "./markdown.js";
import type { ToolCallState } from "./tool-calls.js";

/** Messages redrawn when a session is resumed; earlier ones are summed up in one line. */
export const REPLAYED_MESSAGES = 60;

/** What replaying draws with. */
export interface ReplayTarget {
	commit(lines: readonly string[]): void;
	commitToolCalls(calls: readonly ToolCallState[]): void;
}

/** The text of a user message (images as a placeholder). */
export function userText(message: UserMessage): string {
	if (typeof message.content === "string") return message.content;
	return message.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
}

/** A finished call as the view (and the HTML export) draws it, from the model's call and its result message. */
export function callState(
	call: { id: string; name: string; arguments: unknown },
	result: ToolResultMessage | undefined,
) {
	const children: ToolCallState[] = (result?.nestedCalls?.calls ?? []).map((record) => ({
		id: record.id,
		name: record.name,
		args: record.arguments ?? {},
		startedAt: 0,
		result: { content: record.error ? [{ type: "text" as const, text: record.error }] : [], details: undefined },
		isError: record.status !== "ok",
		done: true,
		ran: record.blocked !== true && record.durationMs !== undefined,
		blocked: record.blocked === true,
		...withoutUndefined({ durationMs: record.durationMs }),
		children: [],
	}));
	const state: ToolCallState = {
		id: call.id,
		name: call.name,
		args: call.arguments,
		startedAt: 0,
		result: result ? { content: result.content, details: result.details } : { content: [], details: undefined },
		isError: result?.isError ?? true,
		done: true,
		ran: result?.blocked !== true && result?.durationMs !== undefined,
		blocked: result?.blocked === true,
		durationMs: result?.durationMs ?? 0,
		children,
	};
	return state;
}

/**
 * Draws an earlier conversation as it looked when it ran: the prompts, the assistant's text (as Markdown)
 * and every tool call in its frame with its result. Only the last `limit` messages are drawn.
 */
export function replayConversation(
	messages: readonly AgentMessage[],
	target: ReplayTarget,
	theme: Theme,
	limit = REPLAYED_MESSAGES,
): void {
	const start = Math.max(0, messages.length - limit);
	const results = new Map<string, ToolResultMessage>();
	for (const message of messages) {
		if ((message as { role?: string }).role === "toolResult") {
			const result = message as ToolResultMessage;
			results.set(result.toolCallId, result);
		}
	}
	if (start > 0) target.commit([theme.muted(`… ${start} earlier messages (all of them: /export)`), ""]);
	const markdown = new MarkdownLines(theme);
	for (const message of messages.slice(start)) {
		const role = (message as { role?: string }).role;
		if (role === "user") {
			const [first = "", ...rest] = userText(message as UserMessage).split("\n");
			target.commit([`${theme.accent("› ")}${theme.bold(first)}`, ...rest.map((line) => `  ${line}`), ""]);
		} else if (role === "assistant") {
			const assistant = message as AssistantMessage;
			markdown.reset();
			for (const block of assistant.content) {
				if (block.type === "text" && block.text.trim() !== "") {
					target.commit([
						...block.text
							.trim()
							.split("\n")
							.map((line) => markdown.line(line)),
						"",
					]);
				} else if (block.type === "toolCall") {
					target.commitToolCalls([callState(block, results.get(block.id))]);
				}
			}
			if (assistant.stopReason === "error") {
				target.commit([theme.error(`gantry: ${assistant.errorMessage ?? "the model request failed"}`), ""]);
			}
		}
	}
	target.commit([theme.muted("── resumed here ──"), ""]);
}
