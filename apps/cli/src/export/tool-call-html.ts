import type { ToolCall, ToolResultMessage } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { formatDuration } from "../tui/fallback-render.js";
import { callState } from "../tui/replay.js";
import { renderToolFrame } from "../tui/tool-frame.js";
import { cleanText, escapeHtml, markerTheme, toHtml } from "./html-theme.js";

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

/** One tool call as a collapsible block: the terminal frame (nested calls inside), images, the full arguments. */
export function toolCallHtml(
	call: ToolCall,
	rawResult: ToolResultMessage | undefined,
	getDefinition: (name: string) => ToolDefinition | undefined,
): string {
	const result = cleanResult(rawResult);
	const state = callState({ id: call.id, name: call.name, arguments: cleanValue(call.arguments) }, result);
	const frame = renderToolFrame(state, { theme: markerTheme, getDefinition, spinner: "", now: 0, expanded: true });
	const failed = !result || result.isError;
	const outcome = !result
		? "✗ no result"
		: !failed
			? "✓"
			: state.blocked
				? "✗ blocked"
				: state.ran
					? "✗ failed"
					: "✗ not run";
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
