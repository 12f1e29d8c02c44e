import type { AssistantMessage, ToolResultMessage, UserMessage } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { createAllToolDefinitions } from "@gantry/tools";
import { userText } from "../tui/replay.js";
import { assistantHtml } from "./assistant-html.js";
import { cleanText, escapeHtml } from "./html-theme.js";
import { PAGE_SCRIPT, PAGE_STYLE } from "./page-assets.js";
import type { ExportedTranscript, TranscriptItem } from "./read-transcript.js";

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
 * caller, durations, errors marked) with its full arguments, usage and cost per model response, the
 * changes of the active tool set and of the model. All text is escaped.
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
		if (item.type === "rewind") {
			body.push(rewindHtml(item));
			continue;
		}
		if (item.type === "model") {
			body.push(`<div class="model-change">Model switched to ${escapeHtml(`${item.provider}/${item.id}`)}</div>`);
			continue;
		}
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
		// Turns a rewind dropped stay on the page, marked, so a reader sees what was undone.
		const push = (html: string) =>
			body.push(item.rewound ? `<div class="rewound" title="dropped by a later rewind">${html}</div>` : html);
		if (role === "user") {
			push(
				`<section class="user"><pre>${escapeHtml(cleanText(userText(item.message as UserMessage)))}</pre></section>`,
			);
		} else if (role === "assistant") {
			const message = item.message as AssistantMessage;
			calls += message.content.filter((block) => block.type === "toolCall").length;
			cost += message.usage?.cost?.total ?? 0;
			push(assistantHtml(message, results, getDefinition));
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

/** The line a rewind leaves on the page: what it went back to and what it did to the files. */
function rewindHtml(item: Extract<TranscriptItem, { type: "rewind" }>): string {
	const what = item.code && item.conversation ? "code and conversation" : item.code ? "code" : "conversation";
	const to = item.droppedPrompts[0] === undefined ? "" : ` to before “${item.droppedPrompts[0].split("\n")[0]}”`;
	const files = item.code
		? ` · ${item.restored.length} restored, ${item.removed.length} removed${
				item.conflicts.length > 0
					? `, ${item.conflicts.length} kept (changed outside the session): ${item.conflicts.join(", ")}`
					: ""
			}`
		: "";
	return `<div class="rewind-mark">Rewound ${escapeHtml(what)}${escapeHtml(to)}${escapeHtml(files)}</div>`;
}
