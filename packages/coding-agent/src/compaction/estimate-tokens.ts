import type { AgentMessage } from "@gantry/agent";
import type { AssistantMessage, Usage } from "@gantry/ai";

/** What an image is counted as: providers charge roughly this many tokens for a screenshot-sized one. */
const IMAGE_TOKENS = 1_200;

type Block = { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown; data?: unknown };

/** The characters a message sends (text, reasoning, tool calls and their arguments); images aside. */
export function messageCharacters(message: AgentMessage): number {
	const { content } = message as { content?: unknown };
	if (typeof content === "string") return content.length;
	if (!Array.isArray(content)) return JSON.stringify(message).length;
	let characters = 0;
	for (const block of content as Block[]) {
		if (block.type === "text") characters += block.text?.length ?? 0;
		else if (block.type === "thinking") characters += block.thinking?.length ?? 0;
		else if (block.type === "toolCall")
			characters += (block.name?.length ?? 0) + JSON.stringify(block.arguments ?? {}).length;
		else if (block.type !== "image") characters += JSON.stringify(block).length;
	}
	return characters;
}

function imageCount(message: AgentMessage): number {
	const { content } = message as { content?: unknown };
	return Array.isArray(content) ? (content as Block[]).filter((block) => block.type === "image").length : 0;
}

/** A message's tokens estimated as characters / 4 (and a fixed count per image). */
export function estimateMessageTokens(message: AgentMessage): number {
	return Math.ceil(messageCharacters(message) / 4) + imageCount(message) * IMAGE_TOKENS;
}

/** The context a response's usage measured: its whole input (cached or not) and its own output. */
export function usageContextTokens(usage: Usage): number {
	return usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
}

/** An assistant message whose usage measured a completed request. */
export function measuredAssistant(message: AgentMessage): AssistantMessage | undefined {
	const candidate = message as Partial<AssistantMessage> & { role?: string };
	if (candidate.role !== "assistant" || candidate.usage === undefined) return undefined;
	if (candidate.stopReason === "error" || candidate.stopReason === "aborted") return undefined;
	return usageContextTokens(candidate.usage) > 0 ? (candidate as AssistantMessage) : undefined;
}
