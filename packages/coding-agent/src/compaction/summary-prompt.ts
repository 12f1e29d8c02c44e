import type { AgentMessage } from "@gantry/agent";
import type { Message } from "@gantry/ai";

/** The system prompt of the summary request: the model writes notes, it does not go on with the work. */
export const SUMMARY_SYSTEM_PROMPT =
	"You summarise a conversation between a user and a coding agent (its tool calls and their results " +
	"included) so that the agent can go on with the work from your summary alone. Do not answer the user, " +
	"do not continue the work and do not call tools: write only the summary.";

/** How much of one tool result (or one message) the summary request shows. */
const MESSAGE_CLIP = 2_000;

function clip(text: string, limit = MESSAGE_CLIP): string {
	if (text.length <= limit) return text;
	const half = Math.floor(limit / 2);
	return `${text.slice(0, half)}\n[… ${(text.length - limit).toLocaleString("en-US")} characters left out …]\n${text.slice(-half)}`;
}

type Block = { type: string; text?: string; name?: string; arguments?: unknown };

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return (content as Block[])
		.map((block) => (block.type === "text" ? (block.text ?? "") : block.type === "image" ? "[image]" : ""))
		.filter((part) => part !== "")
		.join("\n");
}

/**
 * The conversation as plain text for the summary request: who said what, each tool call with its
 * arguments and each result (long ones clipped in the middle). Reasoning is left out.
 */
export function conversationText(messages: readonly AgentMessage[]): string {
	const parts: string[] = [];
	for (const message of messages) {
		const { role, content } = message as { role?: string; content?: unknown };
		if (role === "user") parts.push(`[User]\n${clip(textOf(content), MESSAGE_CLIP * 4)}`);
		else if (role === "assistant") {
			const text = textOf(content);
			if (text !== "") parts.push(`[Assistant]\n${clip(text, MESSAGE_CLIP * 4)}`);
			for (const block of (content as Block[]) ?? []) {
				if (block.type === "toolCall")
					parts.push(`[Tool call ${block.name}] ${clip(JSON.stringify(block.arguments ?? {}))}`);
			}
		} else if (role === "toolResult") {
			const result = message as { toolName?: string; isError?: boolean };
			parts.push(`[Tool result ${result.toolName}${result.isError ? " (error)" : ""}]\n${clip(textOf(content))}`);
		}
	}
	return parts.join("\n\n");
}

/**
 * The one user message of the summary request: the conversation (cut to `maxCharacters`, its start and
 * its end kept), the earlier summary to fold in, the sections to write and the user's own instructions.
 */
export function summaryRequestMessage(input: {
	messages: readonly AgentMessage[];
	previousSummary?: string | undefined;
	instructions?: string | undefined;
	maxCharacters: number;
}): Message {
	const previous =
		input.previousSummary === undefined
			? ""
			: `The conversation before this part was summarised earlier; fold that summary into yours:\n<previous-summary>\n${input.previousSummary}\n</previous-summary>\n\n`;
	const instructions =
		input.instructions === undefined || input.instructions.trim() === ""
			? ""
			: `\n\nThe user asks you to pay attention to this: ${input.instructions.trim()}`;
	const text =
		`${previous}<conversation>\n${clip(conversationText(input.messages), input.maxCharacters)}\n</conversation>\n\n` +
		"Write the summary the agent will continue from, under these headings:\n" +
		"## Goal — what the user asked for (their words where they matter)\n" +
		"## Constraints — preferences, rules and what not to do\n" +
		"## Done — what is finished, with file paths\n" +
		"## In progress — what was being done when the conversation was cut\n" +
		"## Key facts — decisions and their reasons, names, commands, errors and values needed later\n" +
		"## Next steps\n" +
		`Be brief and concrete; keep exact paths, identifiers and commands.${instructions}`;
	return { role: "user", content: text, timestamp: Date.now() };
}

/** The message the summary is sent as, in place of the conversation it stands for. */
export function summaryMessage(summary: string): Message {
	return {
		role: "user",
		content: `The conversation before this point was compacted to save context. Its summary:\n\n<summary>\n${summary}\n</summary>`,
		timestamp: 0,
	};
}
