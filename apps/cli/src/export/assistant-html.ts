import type { AssistantMessage, ToolResultMessage } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { cleanText, escapeHtml } from "./html-theme.js";
import { markdownToHtml } from "./markdown-html.js";
import { toolCallHtml } from "./tool-call-html.js";

function usageHtml(message: AssistantMessage): string {
	const usage = message.usage;
	if (!usage) return "";
	const number = (value: number) => value.toLocaleString("en-US");
	const cost = usage.cost?.total ? ` · $${usage.cost.total.toFixed(4)}` : "";
	return `<div class="usage">${escapeHtml(`${message.provider}/${message.model}`)} · ${number(usage.input)} in · ${number(usage.output)} out · ${number(usage.cacheRead)} cache read · ${number(usage.cacheWrite)} cache write${cost}</div>`;
}

/** One model response: thinking (collapsed), text as Markdown, its tool calls, errors, usage and cost. */
export function assistantHtml(
	message: AssistantMessage,
	results: Map<string, ToolResultMessage>,
	getDefinition: (name: string) => ToolDefinition | undefined,
): string {
	const parts: string[] = [];
	for (const block of message.content) {
		if (block.type === "thinking" && block.thinking.trim() !== "") {
			parts.push(
				`<details class="thinking"><summary>Thinking</summary><pre>${escapeHtml(cleanText(block.thinking))}</pre></details>`,
			);
		} else if (block.type === "text" && block.text.trim() !== "") {
			parts.push(`<div class="text">${markdownToHtml(cleanText(block.text))}</div>`);
		} else if (block.type === "toolCall") {
			parts.push(toolCallHtml(block, results.get(block.id), getDefinition));
		}
	}
	if (message.stopReason === "error") {
		parts.push(
			`<p class="model-error">gantry: ${escapeHtml(cleanText(message.errorMessage ?? "the model request failed"))}</p>`,
		);
	} else if (message.stopReason === "aborted") parts.push(`<p class="model-error">Aborted.</p>`);
	return `<section class="assistant">${parts.join("\n")}${usageHtml(message)}</section>`;
}
