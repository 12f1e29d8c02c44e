import path from "node:path";
import type { ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { toolPathResolver } from "../existing-path.js";
import { rememberFileVersion } from "../file-versions.js";
import { withWorkspaceMutationQueues } from "../mutation-queue.js";
import type { Workspace } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import { commitOutcomes, versionOf } from "./commit.js";
import { assertInsideWorkingFolder } from "./containment.js";
import { APPLY_PATCH_LARK_GRAMMAR } from "./grammar.js";
import { parsePatch } from "./parse.js";
import { planPatch, type ResolvedAction } from "./plan.js";
import { renderApplyPatchCall, renderApplyPatchResult } from "./render.js";
import {
	type ApplyPatchFileChange,
	type ApplyPatchToolDetails,
	type ApplyPatchToolOptions,
	applyPatchOutputSchema,
	applyPatchSchema,
} from "./types.js";

const DESCRIPTION = `Edit files with a patch. The input is the whole patch:

*** Begin Patch
*** Add File: <path>        (every following line starts with +: the new file's content)
*** Delete File: <path>
*** Update File: <path>
*** Move to: <new path>     (optional, right after Update File: rename the file too)
@@ <a line the change comes after, e.g. a function's first line> (or a bare @@)
 <context line, starting with a space>
-<removed line>
+<added line>
*** End of File             (optional: the hunk's lines end the file)
*** End Patch

Paths are relative to the working folder. Give about 3 lines of context around each change, and use @@ lines to say where in the file a hunk is when the context alone is not unique; hunks of one file come in file order. The patch is applied whole or not at all: if any hunk does not apply, nothing is written. Line endings and a byte order mark are kept.`;

const KIND_LETTERS: Record<ApplyPatchFileChange["kind"], string> = { add: "A", update: "M", delete: "D", move: "M" };

/** The `apply_patch` tool's summary, in the words Codex gives (models trained on Codex expect them). */
function summary(files: readonly ApplyPatchFileChange[], looseMatches: number): string {
	const lines = files.map((file) => `${KIND_LETTERS[file.kind]} ${file.kind === "move" ? file.movePath : file.path}`);
	const note =
		looseMatches > 0
			? `\n(${looseMatches} hunk${looseMatches === 1 ? "" : "s"} matched only after ignoring whitespace at line ends or typographic punctuation)`
			: "";
	return `Success. Updated the following files:\n${lines.join("\n")}${note}`;
}

/**
 * The `apply_patch` tool: Codex's patch format (add, delete, update and move files with `@@` context
 * hunks), applied through the workspace with every guarantee `edit` and `write` give, and all or nothing:
 * every hunk of every file is checked before anything is written, and a write that fails midway is undone.
 */
export function createApplyPatchToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: ApplyPatchToolOptions = {},
): ToolDefinition<typeof applyPatchSchema, ApplyPatchToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const resolvePath = toolPathResolver(workspace, false);
	const syntax = workspace.isLocal ? path : path.posix;
	return defineBoundedTool({
		name: "apply_patch",
		label: "Apply patch",
		description: DESCRIPTION,
		promptSnippet: "Add, change, move and delete files with one patch (Codex's apply_patch format)",
		promptGuidelines: [
			"Read a file before patching it, and copy the context and removed lines exactly as they are, indentation included.",
			"Put every change of one task in one patch: it is checked whole and applied whole.",
		],
		parameters: applyPatchSchema,
		outputSchema: applyPatchOutputSchema,
		constrainedSampling: { type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK_GRAMMAR },
		annotations: { destructiveHint: true },
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const parsed = parsePatch(typeof params.input === "string" ? params.input : "");
			if (parsed.length === 0)
				throw new Error(
					"The patch names no file: add '*** Add File:', '*** Update File:' or '*** Delete File:' sections.",
				);
			const actions: ResolvedAction[] = [];
			for (const action of parsed) {
				const absolute = await resolvePath(action.path);
				const moveAbsolute =
					action.type === "update" && action.movePath !== undefined ? await resolvePath(action.movePath) : undefined;
				actions.push(moveAbsolute === undefined ? { ...action, absolute } : { ...action, absolute, moveAbsolute });
			}
			const touched = actions.flatMap((action) => [
				{ absolute: action.absolute, display: action.path },
				...(action.type === "update" && action.moveAbsolute !== undefined
					? [{ absolute: action.moveAbsolute, display: action.movePath ?? action.path }]
					: []),
			]);
			if (!options.allowOutsideWorkingFolder) await assertInsideWorkingFolder(workspace, touched);
			return withWorkspaceMutationQueues(
				workspace,
				touched.map((entry) => entry.absolute),
				async () => {
					throwIfAborted(signal);
					const plan = await planPatch(workspace, actions);
					throwIfAborted(signal);
					await commitOutcomes(workspace.fs, plan.outcomes, syntax);
					// What the model now knows of these files: what the patch wrote (a deleted file is forgotten).
					for (const outcome of plan.outcomes) {
						const written =
							outcome.after === undefined ? undefined : await workspace.fs.stat(outcome.path).catch(() => undefined);
						rememberFileVersion(workspace, outcome.path, written && versionOf(written));
					}
					const files = plan.changes.map(({ absolute: _absolute, moveAbsolute: _move, ...change }) => change);
					return {
						content: [{ type: "text", text: summary(files, plan.looseMatches) }],
						details: { files },
						structuredContent: {
							files: plan.changes.map((change) =>
								change.moveAbsolute === undefined
									? { path: change.absolute, kind: change.kind }
									: { path: change.absolute, kind: change.kind, movePath: change.moveAbsolute },
							),
						},
					};
				},
			);
		},
		renderCall: (args, theme) => renderApplyPatchCall(args, theme),
		renderResult: (result, { expanded }, theme) => renderApplyPatchResult(result, expanded, theme),
	});
}
