import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";
import { renderListing } from "../search/render-listing.js";
import type { GrepToolDetails, GrepToolInput } from "./types.js";

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
	const details = result.details;
	return renderListing(result, options, theme, {
		pending: "Searching…",
		count: details?.matchCount,
		countText: (count) => `${count} ${count === 1 ? "match" : "matches"} (${details?.engine})`,
		preview: PREVIEW_LINES,
		clip,
		hiddenNoun: "line",
	});
}
