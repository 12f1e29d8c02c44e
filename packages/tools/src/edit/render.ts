import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";

/** Diff lines shown before the rest is folded away (collapsed view). */
export const COLLAPSED_DIFF_LINES = 20;

/** The text of a result's first text block ("" when it has none). */
export function resultText(result: AgentToolResult<unknown>): string {
	const block = result.content.find((content) => content.type === "text");
	return block && block.type === "text" ? block.text : "";
}

/** One diff line coloured by its role: additions, removals, hunk headers. */
export function colourDiffLine(line: string, theme: Theme): string {
	if (line.startsWith("+")) return theme.success(line);
	if (line.startsWith("-")) return theme.error(line);
	if (line.startsWith("@@")) return theme.accent(line);
	if (line.startsWith("\\")) return theme.muted(line);
	return line;
}

/**
 * The summary line and the diff (without its `---` / `+++` headers), cut to a few lines unless
 * `expanded`.
 */
export function renderDiffResult(summary: string, diff: string, expanded: boolean, theme: Theme): string {
	const lines = diff.split("\n").filter((line) => !line.startsWith("--- ") && !line.startsWith("+++ "));
	const shown = expanded ? lines : lines.slice(0, COLLAPSED_DIFF_LINES);
	const output = [theme.success(summary), ...shown.map((line) => colourDiffLine(line, theme))];
	const hidden = lines.length - shown.length;
	if (hidden > 0) output.push(theme.muted(`… ${hidden} more diff line${hidden === 1 ? "" : "s"} (expand to see all)`));
	return output.join("\n");
}

/** An error result: its first line, or all of it when `expanded`. */
export function renderErrorResult(text: string, expanded: boolean, theme: Theme): string {
	return theme.error(expanded ? text : (text.split("\n")[0] ?? ""));
}
