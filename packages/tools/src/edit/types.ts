import { type Static, Type } from "@sinclair/typebox";

const editItemSchema = Type.Object(
	{
		oldText: Type.String({
			description:
				"Exact text to replace, copied from the file with its whitespace and indentation. Must occur exactly once in the file.",
		}),
		newText: Type.String({ description: "The text that takes the place of oldText." }),
	},
	{ additionalProperties: false },
);

export const editSchema = Type.Object(
	{
		path: Type.String({
			description: "File to edit: relative to the working folder, absolute, or starting with ~.",
		}),
		edits: Type.Array(editItemSchema, {
			description:
				"One or more replacements. Each is matched against the file as it was before this call (not after the other edits), and they must not overlap.",
		}),
	},
	{ additionalProperties: false },
);

export type EditToolInput = Static<typeof editSchema>;

export const editOutputSchema = Type.Object(
	{
		path: Type.String({ description: "Absolute path of the edited file." }),
		editsApplied: Type.Integer({ description: "How many replacements were made." }),
		firstChangedLine: Type.Integer({ description: "1-based line of the first change in the new file." }),
	},
	{ additionalProperties: false },
);

/** What the UI gets in `details` of a successful edit. */
export interface EditToolDetails {
	/** Unified diff of the change, with `@@ -a,b +c,d @@` line numbers and 3 lines of context. */
	diff: string;
	/** 1-based line, in the new file, of the first added or removed line. */
	firstChangedLine: number;
}

/** All the file I/O of the edit tool; replace it to edit files somewhere else (a container, a remote host). */
export interface EditOperations {
	/**
	 * Resolves when the file exists and may be read and written. Rejects with an error whose `code`
	 * is `ENOENT` when it is missing, `EACCES` when it may not be changed.
	 */
	access(path: string): Promise<void>;
	/** The whole file. Rejects with `code` `EISDIR` for a folder, `ENOENT` when missing. */
	readFile(path: string): Promise<Uint8Array>;
	/**
	 * What is at `path` (links followed): its kind, asked before reading so that a named pipe or a device is
	 * refused instead of blocking the read forever, and its size and modification time, so that a file that
	 * changed since the model read it (or while the edit was made) is not overwritten. Optional: operations
	 * without it read straight away and skip those checks.
	 */
	stat?(path: string): Promise<{ kind: "file" | "directory" | "other"; size: number; mtimeMs?: number } | undefined>;
	/** Replaces the file so that a crash never leaves it half written; keeps its permissions. May reject. */
	writeFileAtomic(path: string, data: Uint8Array): Promise<void>;
}

export interface EditToolOptions {
	/** Where the file I/O goes. Default `localEditOperations`. */
	operations?: EditOperations;
}
