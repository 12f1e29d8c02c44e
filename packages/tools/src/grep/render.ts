import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";
import type { GrepToolDetails, GrepToolInput } from "../grep.js";

const PREVIEW_LINES = 8;
const PREVIEW_WIDTH = 160;

function clip(line: string): string {
	return line.length > PREVIEW_WIDTH ? `${line.slice(0, PREVIEW_WIDTH)}…` : line;
}

/** One line: `grep /pattern/ path (glob, flags)`. */
export function renderGrepCall(args: GrepToolInput, theme: Theme): string {
	const pattern = typeof args.pattern === "string" ? args.pattern : "";
	const shown = args.literal ? JSON.stringify(pattern) : `/${pattern}/${args.ignoreCase ? "i" : ""}`;
	const extras: string[] = [];
	if (typeof args.glob === "string" && args.glob !== "") extras.push(args.glob);
	if (args.literal && args.ignoreCase) extras.push("ignore case");
	if (typeof args.context === "number" && args.context > 0) extras.push(`context ${args.context}`);
	if (typeof args.limit === "number") extras.push(`limit ${args.limit}`);
	const where = typeof args.path === "string" && args.path !== "" ? args.path : ".";
	const suffix = extras.length > 0 ? theme.dim(` (${extras.join(", ")})`) : "";
	return `${theme.bold("grep")} ${theme.accent(shown)} ${where}${suffix}`;
}

/** The match count and the first matches (all of them when expanded), then any notice. */
export function renderGrepResult(
	result: AgentToolResult<GrepToolDetails>,
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): string {
	if (options.isPartial) return theme.dim("Searching…");
	const block = result.content.find((content) => content.type === "text");
	const text = block?.type === "text" ? block.text : "";
	const details = result.details;
	if (result.isError || details === undefined) return theme.error(clip(text.split("\n")[0] ?? ""));
	if (details.matchCount === 0) return theme.dim(text);
	const noticeAt = text.indexOf("\n\n[");
	const body = (noticeAt >= 0 ? text.slice(0, noticeAt) : text).split("\n");
	const notices = noticeAt >= 0 ? text.slice(noticeAt + 2).split("\n") : [];
	const shown = options.expanded ? body : body.slice(0, PREVIEW_LINES);
	const count = `${details.matchCount} ${details.matchCount === 1 ? "match" : "matches"} (${details.engine})`;
	const output = [theme.success(count), ...shown.map((line) => clip(line))];
	if (shown.length < body.length) output.push(theme.dim(`… ${body.length - shown.length} more lines`));
	for (const notice of notices) output.push(theme.warning(notice));
	return output.join("\n");
}
