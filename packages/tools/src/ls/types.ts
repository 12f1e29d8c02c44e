// Schemas and types of the ls tool.
import { type Static, Type } from "@sinclair/typebox";
import type { OutputTruncation } from "../search/output-cut.js";

/** Entries returned when the call gives no `limit`. */
export const DEFAULT_LS_LIMIT = 500;

export const lsSchema = Type.Object(
	{
		path: Type.Optional(
			Type.String({ description: "Folder to list, relative to the working folder. Default: the working folder." }),
		),
		limit: Type.Optional(
			Type.Integer({ minimum: 1, description: `Most entries to return. Default ${DEFAULT_LS_LIMIT}.` }),
		),
	},
	{ additionalProperties: false },
);

export type LsToolInput = Static<typeof lsSchema>;

/** What an entry is, links followed (a broken link is `"other"`). */
export type LsEntryType = "file" | "directory" | "other";

/** `structuredContent` of a successful ls. */
export const lsOutputSchema = Type.Object({
	entries: Type.Array(
		Type.Object({
			name: Type.String(),
			type: Type.Union([Type.Literal("file"), Type.Literal("directory"), Type.Literal("other")], {
				description: "Links followed: a link to a folder is a directory.",
			}),
		}),
		{ description: "Sorted case-insensitively." },
	),
	truncated: Type.Boolean({ description: "The folder holds more entries than returned (limit or output size)." }),
});

/** One entry of a listing; for a symbolic link, `type` describes its target. */
export interface LsEntry {
	name: string;
	type: LsEntryType;
}

/** What the UI gets in `details`. */
export interface LsToolDetails {
	/** Entries returned. */
	entryCount: number;
	/** The limit, when the folder holds more entries than it let through. */
	entryLimitReached?: number;
	/** Set when the output was cut to `DEFAULT_MAX_BYTES`. */
	truncation?: OutputTruncation;
}

/** All I/O of the ls tool. */
export interface LsOperations {
	/** What is at `path`, links followed: a file, a folder, something else, or undefined for nothing. May throw. */
	stat(path: string): Promise<"file" | "directory" | "other" | undefined>;
	/**
	 * The entries of the folder at `path`, in any order, links resolved to their target's type. Rejects
	 * when `path` is not a readable folder (ls then asks `stat` what is there, to say so).
	 */
	readdir(path: string): Promise<LsEntry[]>;
}

export interface LsToolOptions {
	/** Where the I/O goes. Default `localLsOperations`. */
	operations?: LsOperations;
}
