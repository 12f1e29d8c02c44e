import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";

/** Result lines shown for a tool without its own renderer. */
const FALLBACK_RESULT_LINES = 8;
/** Characters of arguments shown on the call line. */
const FALLBACK_ARGS_CHARS = 100;

/** One value of the call line: strings as they are (quoted when they contain spaces), the rest as JSON. */
function formatValue(value: unknown): string {
	if (typeof value === "string") return /[\s"]/.test(value) || value === "" ? JSON.stringify(value) : value;
	return JSON.stringify(value) ?? String(value);
}

/** The call line of a tool without `renderCall`: its name and `key=value` arguments, cut to fit. */
export function renderFallbackCall(name: string, args: unknown, theme: Theme): string {
	let text: string;
	if (args !== null && typeof args === "object" && !Array.isArray(args)) {
		text = Object.entries(args as Record<string, unknown>)
			.map(([key, value]) => `${key}=${formatValue(value)}`)
			.join(" ");
	} else {
		text = args === undefined ? "" : formatValue(args);
	}
	text = text.replace(/\s*\n\s*/g, " ");
	if (text.length > FALLBACK_ARGS_CHARS) text = `${text.slice(0, FALLBACK_ARGS_CHARS - 1)}…`;
	return text === "" ? theme.bold(name) : `${theme.bold(name)} ${theme.muted(text)}`;
}

/** The text of a result: text blocks as they are, images as a placeholder. */
export function resultToText(result: AgentToolResult): string {
	return result.content
		.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`))
		.join("\n")
		.replace(/\n+$/, "");
}

/**
 * The result of a tool without `renderResult`: the first lines of its text (the last ones while it is
 * still running, as output grows at the end), errors in the error colour.
 */
export function renderFallbackResult(result: AgentToolResult, isPartial: boolean, theme: Theme): string {
	const text = resultToText(result);
	if (text === "") return "";
	const lines = text.split("\n");
	const shown = isPartial ? lines.slice(-FALLBACK_RESULT_LINES) : lines.slice(0, FALLBACK_RESULT_LINES);
	const hidden = lines.length - shown.length;
	const styled = shown.map((line) => (result.isError ? theme.error(line) : line));
	if (hidden > 0) {
		const note = theme.muted(`… ${hidden} ${isPartial ? "earlier" : "more"} line${hidden === 1 ? "" : "s"}`);
		if (isPartial) styled.unshift(note);
		else styled.push(note);
	}
	return styled.join("\n");
}

/** A duration for people: `12ms`, `1.4s`, `2m 05s`. */
export function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
	if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
	const minutes = Math.floor(ms / 60_000);
	const seconds = Math.floor((ms % 60_000) / 1000);
	return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}
