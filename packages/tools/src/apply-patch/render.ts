import type { AgentToolResult } from "@gantry/agent";
import type { Theme } from "@gantry/extensions";
import { COLLAPSED_DIFF_LINES, colourDiffLine, renderErrorResult, resultText } from "../edit/render.js";
import type { ApplyPatchFileChange, ApplyPatchToolDetails } from "./types.js";

const KIND_LETTERS: Record<ApplyPatchFileChange["kind"], string> = { add: "A", update: "M", delete: "D", move: "R" };
const FILE_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
/** The letters of Codex's summary: added, modified, deleted. */
const HEADER_LETTERS: Record<string, string> = { Add: "A", Update: "M", Delete: "D" };

/** The files a patch names, read loosely from its text (the call may still be streaming). */
function namedFiles(input: string): string[] {
	const files: string[] = [];
	for (const line of input.split(/\r?\n/)) {
		const [, kind, name] = FILE_HEADER.exec(line.trim()) ?? [];
		if (kind !== undefined && name !== undefined) files.push(`${HEADER_LETTERS[kind] ?? "?"} ${name.trim()}`);
	}
	return files;
}

/** The call: `apply_patch` and the files it names (`A new.ts, M src/app.ts`). */
export function renderApplyPatchCall(args: { input?: unknown } | undefined, theme: Theme): string {
	const files = typeof args?.input === "string" ? namedFiles(args.input) : [];
	const shown = files.slice(0, 4).join(", ");
	const more = files.length > 4 ? theme.muted(` (+${files.length - 4} more)`) : "";
	return `${theme.bold("apply_patch")} ${theme.accent(shown)}${more}`;
}

function fileTitle(file: ApplyPatchFileChange): string {
	const target = file.kind === "move" && file.movePath ? `${file.path} → ${file.movePath}` : file.path;
	return `${KIND_LETTERS[file.kind]} ${target}`;
}

/**
 * The result as `edit` draws its own: the summary line, then each file's name and its diff (without
 * the `---` / `+++` headers), cut to a few lines unless `expanded`; an error shows its first line.
 */
export function renderApplyPatchResult(
	result: AgentToolResult<ApplyPatchToolDetails>,
	expanded: boolean,
	theme: Theme,
): string {
	const text = resultText(result);
	if (result.isError) return renderErrorResult(text, expanded, theme);
	const files = result.details?.files ?? [];
	const lines: string[] = [];
	for (const file of files) {
		lines.push(theme.bold(fileTitle(file)));
		for (const line of file.diff.split("\n")) {
			if (line.startsWith("--- ") || line.startsWith("+++ ")) continue;
			lines.push(colourDiffLine(line, theme));
		}
	}
	const shown = expanded ? lines : lines.slice(0, COLLAPSED_DIFF_LINES);
	const output = [theme.success(text.split("\n")[0] ?? ""), ...shown];
	const hidden = lines.length - shown.length;
	if (hidden > 0) output.push(theme.muted(`… ${hidden} more diff line${hidden === 1 ? "" : "s"} (expand to see all)`));
	return output.join("\n");
}
