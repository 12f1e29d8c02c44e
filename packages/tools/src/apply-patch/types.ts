import { type Static, Type } from "@sinclair/typebox";

export const applyPatchSchema = Type.Object(
	{
		input: Type.String({
			description:
				"The whole patch, from '*** Begin Patch' to '*** End Patch', in the apply_patch format described in the tool's description.",
		}),
	},
	{ additionalProperties: false },
);

export type ApplyPatchToolInput = Static<typeof applyPatchSchema>;

/** One line of a hunk: context (` `), removed (`-`) or added (`+`), without its prefix. */
export interface PatchLine {
	kind: " " | "-" | "+";
	text: string;
}

/** One `@@` hunk of an `*** Update File:` section: lines matched in the file and what replaces them. */
export interface PatchChunk {
	/** The text after `@@ `: a line (a function, a class) the hunk's lines come after. */
	context?: string;
	/** The lines to find: context (` `) and removed (`-`) lines, in order, without their prefix. */
	oldLines: string[];
	/** The lines that replace them: context (` `) and added (`+`) lines. */
	newLines: string[];
	/** The hunk's lines in order, each with its kind (`oldLines` and `newLines` are made of them). */
	lines: PatchLine[];
	/** `*** End of File` closed the hunk: its lines are at the end of the file. */
	endOfFile: boolean;
	/** 1-based line of the patch where the hunk starts. */
	line: number;
}

/** One file operation of a patch, as `parsePatch` reads it. Paths are as the patch spells them. */
export type PatchAction =
	| { type: "add"; path: string; content: string; line: number }
	| { type: "delete"; path: string; line: number }
	| { type: "update"; path: string; movePath?: string; chunks: PatchChunk[]; line: number };

/** What happened to one file, as the result's `details` list it. */
export interface ApplyPatchFileChange {
	/** The file as the patch names it. */
	path: string;
	/** `move`: updated and renamed to `movePath`. */
	kind: "add" | "update" | "delete" | "move";
	/** Where a moved file went, as the patch names it. */
	movePath?: string;
	/** Unified diff of the change (`--- path` / `+++ path` headers, 3 lines of context). */
	diff: string;
}

/** What the UI gets in `details` of a successful patch. */
export interface ApplyPatchToolDetails {
	/** One entry per file section of the patch, in patch order. */
	files: ApplyPatchFileChange[];
}

export const applyPatchOutputSchema = Type.Object(
	{
		files: Type.Array(
			Type.Object(
				{
					path: Type.String({ description: "Absolute path of the file the section named." }),
					kind: Type.Union([Type.Literal("add"), Type.Literal("update"), Type.Literal("delete"), Type.Literal("move")]),
					movePath: Type.Optional(Type.String({ description: "Absolute path a moved file went to." })),
				},
				{ additionalProperties: false },
			),
		),
	},
	{ additionalProperties: false },
);

export interface ApplyPatchToolOptions {
	/**
	 * Let the patch touch files outside the working folder (absolute paths, `~`, `..`, links that lead
	 * out). Default `false`: such a patch is refused before anything is read.
	 */
	allowOutsideWorkingFolder?: boolean;
}
