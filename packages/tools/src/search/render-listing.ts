import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";

export interface ListingRenderOptions {
	/** Shown while the tool runs, e.g. "Searching…". */
	pending: string;
	/** The count line, e.g. "3 files"; undefined when the result has no details (an error). */
	count: number | undefined;
	/** The count line's text for `count`. */
	countText: (count: number) => string;
	/** Lines shown when not expanded. */
	preview: number;
	/** Applied to every shown line and to the error line (e.g. cutting long lines). */
	clip?: (line: string) => string;
	/** What the hidden lines are, singular ("line"): "… 1 more line", "… 3 more lines". Default: "… 3 more". */
	hiddenNoun?: string;
}

/**
 * The result view the search tools share: a count, the first lines of the listing (all of them when
 * expanded), then the notices the tool appended after a blank line (`\n\n[…]`).
 */
export function renderListing(
	result: AgentToolResult,
	view: { expanded: boolean; isPartial: boolean },
	theme: Theme,
	options: ListingRenderOptions,
): string {
	if (view.isPartial) return theme.dim(options.pending);
	const clip = options.clip ?? ((line: string) => line);
	const block = result.content.find((content) => content.type === "text");
	const text = block?.type === "text" ? block.text : "";
	if (result.isError || options.count === undefined) return theme.error(clip(text.split("\n")[0] ?? ""));
	if (options.count === 0) return theme.dim(text);
	const noticeAt = text.indexOf("\n\n[");
	const lines = (noticeAt >= 0 ? text.slice(0, noticeAt) : text).split("\n");
	const shown = view.expanded ? lines : lines.slice(0, options.preview);
	const output = [theme.success(options.countText(options.count)), ...shown.map(clip)];
	const hidden = lines.length - shown.length;
	if (hidden > 0) {
		const noun = options.hiddenNoun === undefined ? "" : ` ${options.hiddenNoun}${hidden === 1 ? "" : "s"}`;
		output.push(theme.dim(`… ${hidden} more${noun}`));
	}
	if (noticeAt >= 0) for (const notice of text.slice(noticeAt + 2).split("\n")) output.push(theme.warning(notice));
	return output.join("\n");
}
