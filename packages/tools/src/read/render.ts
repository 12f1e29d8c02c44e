import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";
import type { ReadToolDetails, ReadToolInput } from "./types.js";

const PREVIEW_LINES = 10;
const PREVIEW_WIDTH = 200;

/** One line: `read path:start-end`. */
export function renderReadCall(args: ReadToolInput, theme: Theme): string {
	const path = typeof args.path === "string" ? args.path : "";
	const offset = typeof args.offset === "number" ? args.offset : undefined;
	const limit = typeof args.limit === "number" ? args.limit : undefined;
	let range = "";
	if (offset !== undefined || limit !== undefined) {
		const start = offset ?? 1;
		range = limit === undefined ? `:${start}-` : `:${start}-${start + limit - 1}`;
	}
	return `${theme.bold("read")} ${theme.accent(path)}${range ? theme.dim(range) : ""}`;
}

function firstText(result: AgentToolResult<ReadToolDetails>): string {
	for (const block of result.content) if (block.type === "text") return block.text;
	return "";
}

function clip(line: string): string {
	return line.length > PREVIEW_WIDTH ? `${line.slice(0, PREVIEW_WIDTH)}…` : line;
}

/** A few lines: the start of the page (all of it when expanded), the range read, and any notice. */
export function renderReadResult(
	result: AgentToolResult<ReadToolDetails>,
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): string {
	if (options.isPartial) return theme.dim("Reading…");
	const text = firstText(result);
	const details = result.details;
	if (result.isError || details === undefined) return theme.error(clip(text.split("\n")[0] ?? ""));
	if (details.kind === "binary") return theme.warning(clip(text));
	if (details.kind === "image" && details.image) {
		const { width, height, mimeType, attached, hints } = details.image;
		const summary = `Image ${width}x${height} (${mimeType})`;
		if (!attached) return theme.warning(`${summary}, not shown: the model does not take images`);
		return [theme.success(summary), ...hints.map((hint) => theme.dim(hint))].join("\n");
	}

	let page = text;
	let notice = "";
	if (details.truncation) {
		const cut = text.lastIndexOf("\n\n[");
		if (cut >= 0) {
			page = text.slice(0, cut);
			notice = text.slice(cut + 2);
		}
	}
	if (details.totalLines === 0) return theme.dim("(empty file)");
	const lines = page.split("\n");
	const shown = options.expanded ? lines : lines.slice(0, PREVIEW_LINES);
	const output = shown.map(clip);
	const hidden = lines.length - shown.length;
	if (hidden > 0) output.push(theme.dim(`… ${hidden} more line${hidden === 1 ? "" : "s"}`));
	const of = details.totalLines === undefined ? "" : ` of ${details.totalLines}`;
	output.push(theme.dim(`lines ${details.startLine}-${details.endLine}${of}`));
	if (notice) output.push(theme.warning(notice));
	return output.join("\n");
}
