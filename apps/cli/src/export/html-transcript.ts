import type { AssistantMessage, ToolCall, ToolResultMessage, UserMessage } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { createAllToolDefinitions } from "@gantry/tools";
import { formatDuration } from "../tui/fallback-render.js";
import { callState, userText } from "../tui/replay.js";
import { renderToolFrame } from "../tui/tool-frame.js";
import { cleanText, escapeHtml, markerTheme, toHtml } from "./html-theme.js";
import { markdownToHtml } from "./markdown-html.js";
import { PAGE_SCRIPT, PAGE_STYLE } from "./page-assets.js";
import type { ExportedTranscript } from "./read-transcript.js";

/** Strings inside a value with {@link cleanText} applied (arguments may hold escape sequences). */
function cleanValue(value: unknown): unknown {
	if (typeof value === "string") return cleanText(value);
	if (Array.isArray(value)) return value.map(cleanValue);
	if (value !== null && typeof value === "object") {
		return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cleanValue(inner)]));
	}
	return value;
}

function cleanResult(result: ToolResultMessage | undefined): ToolResultMessage | undefined {
	if (!result) return undefined;
	const content = result.content.map((block) =>
		block.type === "text" ? { ...block, text: cleanText(block.text) } : block,
	);
	return { ...result, content, details: cleanValue(result.details) };
}

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

function images(result: ToolResultMessage | undefined): string {
	return (result?.content ?? [])
		.filter((block) => block.type === "image")
		.filter((block) => IMAGE_TYPES.test(block.mimeType) && /^[A-Za-z0-9+/=\s]*$/.test(block.data))
		.map(
			(block) =>
				`<img alt="${escapeHtml(block.mimeType)} from the tool" src="data:${block.mimeType};base64,${block.data.replace(/\s/g, "")}">`,
		)
		.join("");
}

function toolCallHtml(
	call: ToolCall,
	rawResult: ToolResultMessage | undefined,
	getDefinition: (name: string) => ToolDefinition | undefined,
): string {
	const result = cleanResult(rawResult);
	const state = callState({ id: call.id, name: call.name, arguments: cleanValue(call.arguments) }, result);
	const frame = renderToolFrame(state, { theme: markerTheme, getDefinition, spinner: "", now: 0, expanded: true });
	const failed = !result || result.isError;
	const outcome = !result ? "✗ no result" : failed ? (state.ran ? "✗ failed" : "✗ not run") : "✓";
	const duration = result?.durationMs === undefined ? "" : ` ${formatDuration(result.durationMs)}`;
	const nested = state.children.length > 0 ? ` · ${state.children.length} nested` : "";
	const args = escapeHtml(JSON.stringify(cleanValue(call.arguments), null, 2) ?? "{}");
	return [
		`<details class="tool ${failed ? "error" : "ok"}" open>`,
		`<summary><span class="name">${escapeHtml(cleanText(call.name))}</span><span class="s-muted">${escapeHtml(call.id)}${nested}</span>`,
		`<span class="status ${failed ? "s-error" : "s-success"}">${outcome}${duration}</span></summary>`,
		`<pre class="frame">${frame.map(toHtml).join("\n")}</pre>`,
		images(result),
		`<details class="args"><summary>arguments</summary><pre>${args}</pre></details>`,
		"</details>",
	].join("");
}

function usageHtml(message: AssistantMessage): string {
	const usage = message.usage;
	if (!usage) return "";
	const number = (value: number) => value.toLocaleString("en-US");
	const cost = usage.cost?.total ? ` · $${usage.cost.total.toFixed(4)}` : "";
	return `<div class="usage">${escapeHtml(`${message.provider}/${message.model}`)} · ${number(usage.input)} in · ${number(usage.output)} out · ${number(usage.cacheRead)} cache read · ${number(usage.cacheWrite)} cache write${cost}</div>`;
}

function assistantHtml(
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

function builtinDefinitions(cwd: string): (name: string) => ToolDefinition | undefined {
	try {
		const definitions: Record<string, ToolDefinition> = createAllToolDefinitions(cwd);
		return (name) => definitions[name];
	} catch {
		return () => undefined;
	}
}

/**
 * One self-contained HTML page of a transcript: styles and script inline, no external URL (images are
 * data URLs). The prompts, the assistant's text (Markdown) and thinking (collapsed), every tool call
 * drawn by the tools' own terminal renderers (diffs coloured, bash output, nested calls inside their
 * caller, durations, errors marked) with its full arguments, usage and cost per model response, and the
 * changes of the active tool set. All text is escaped.
 */
export function renderTranscriptHtml(
	transcript: ExportedTranscript,
	title: string,
	sessionDefinitions?: (name: string) => ToolDefinition | undefined,
): string {
	const builtins = builtinDefinitions(transcript.header.cwd ?? process.cwd());
	const getDefinition = (name: string) => sessionDefinitions?.(name) ?? builtins(name);
	const results = new Map<string, ToolResultMessage>();
	for (const item of transcript.items) {
		if (item.type === "message" && (item.message as { role?: string }).role === "toolResult") {
			const result = item.message as ToolResultMessage;
			results.set(result.toolCallId, result);
		}
	}
	const body: string[] = [];
	let calls = 0;
	let cost = 0;
	let seenTools = false;
	for (const item of transcript.items) {
		if (item.type === "tools") {
			const first = !seenTools;
			seenTools = true;
			if (first && item.removed.length === 0) {
				body.push(`<div class="tools-change">Active tools: ${escapeHtml(item.added.join(", "))}</div>`);
				continue;
			}
			const change = [...item.added.map((name) => `+ ${name}`), ...item.removed.map((name) => `− ${name}`)].join(", ");
			body.push(`<div class="tools-change">Active tools changed: ${escapeHtml(change)}</div>`);
			continue;
		}
		const role = (item.message as { role?: string }).role;
		if (role === "user") {
			body.push(
				`<section class="user"><pre>${escapeHtml(cleanText(userText(item.message as UserMessage)))}</pre></section>`,
			);
		} else if (role === "assistant") {
			const message = item.message as AssistantMessage;
			calls += message.content.filter((block) => block.type === "toolCall").length;
			cost += message.usage?.cost?.total ?? 0;
			body.push(assistantHtml(message, results, getDefinition));
		}
	}
	const { header } = transcript;
	const facts = [
		header.cwd ? `folder ${header.cwd}` : undefined,
		header.createdAt ? `started ${header.createdAt}` : undefined,
		`${calls} tool call${calls === 1 ? "" : "s"}`,
		cost > 0 ? `$${cost.toFixed(4)}` : undefined,
	].filter((fact) => fact !== undefined);
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head>
<body><main>
<header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(facts.join(" · "))}</p></header>
<div class="toolbar"><button type="button" data-open="true">Expand all</button><button type="button" data-open="false">Collapse all</button></div>
${body.join("\n")}
</main><script>${PAGE_SCRIPT}</script></body></html>
`;
}
