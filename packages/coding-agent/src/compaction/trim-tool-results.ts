import type { AgentMessage } from "@gantry/agent";
import type { ToolResultMessage } from "@gantry/ai";
import { messageCharacters } from "./estimate-tokens.js";

/** Tool results shorter than this are left alone: trimming them would save next to nothing. */
export const TRIM_MIN_CHARACTERS = 400;

/** The text a trimmed tool result is sent as. */
export function trimmedNote(characters: number, images = 0): string {
	const imageNote = images > 0 ? ` and ${images} image${images === 1 ? "" : "s"}` : "";
	return `[tool result trimmed to save context: ${characters.toLocaleString("en-US")} characters${imageNote}]`;
}

function isToolResult(message: AgentMessage): message is ToolResultMessage {
	return (message as { role?: string }).role === "toolResult";
}

/** The tool results of `messages[from, to)` worth trimming that are not trimmed yet, and what they hold. */
export function trimCandidates(
	messages: readonly AgentMessage[],
	from: number,
	to: number,
	trimmed: ReadonlySet<string>,
): { toolCallIds: string[]; characters: number } {
	const toolCallIds: string[] = [];
	let characters = 0;
	for (let index = from; index < to; index++) {
		const message = messages[index] as AgentMessage;
		if (!isToolResult(message) || trimmed.has(message.toolCallId)) continue;
		const size = messageCharacters(message);
		const images = message.content.some((block) => block.type === "image");
		if (size < TRIM_MIN_CHARACTERS && !images) continue;
		toolCallIds.push(message.toolCallId);
		characters += size;
	}
	return { toolCallIds, characters };
}

/** The message as it is sent: a trimmed tool result's content becomes the note (a copy; the original stays). */
export function applyTrim(message: AgentMessage, trimmed: ReadonlySet<string>): AgentMessage {
	if (!isToolResult(message) || !trimmed.has(message.toolCallId)) return message;
	const images = message.content.filter((block) => block.type === "image").length;
	return { ...message, content: [{ type: "text", text: trimmedNote(messageCharacters(message), images) }] };
}
