import { type AssistantMessage, emptyUsage } from "@gantry/ai";
import { Type } from "@sinclair/typebox";
import type { ToolDefinition } from "../src/index.js";

/** A small tool that answers with `text`, for registration tests. */
export function textTool(name: string, text = name, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
	return {
		name,
		label: name,
		description: `Answers ${text}`,
		parameters: Type.Object({}),
		execute: async () => ({ content: [{ type: "text", text }] }),
		...overrides,
	};
}

/** The text of the first content block of a result. */
export function firstText(result: { content: readonly { type: string; text?: string }[] }): string | undefined {
	return result.content[0]?.text;
}

/** A finished assistant message without content, for lifecycle events. */
export function assistantMessage(): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		stopReason: "stop",
		usage: emptyUsage(),
		api: "faux",
		provider: "faux",
		model: "faux",
		timestamp: 0,
	};
}
