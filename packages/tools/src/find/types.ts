// Schemas and types of the find tool.
import { type Static, Type } from "@sinclair/typebox";
import type { OutputTruncation } from "../search/output-cut.js";

/** Paths returned when the call gives no `limit`. */
export const DEFAULT_FIND_LIMIT = 1000;

export const findSchema = Type.Object(
	{
		pattern: Type.String({
			description:
				"Glob for file paths relative to the searched folder. A pattern without `/` matches file names at any " +
				"depth (`*.ts`, `{README,CHANGELOG}.md`); with `/` it matches whole paths (`src/**/*.test.ts`).",
		}),
		path: Type.Optional(
			Type.String({ description: "Folder to search in, relative to the working folder. Default: the working folder." }),
		),
		limit: Type.Optional(
			Type.Integer({ minimum: 1, description: `Most paths to return. Default ${DEFAULT_FIND_LIMIT}.` }),
		),
	},
	{ additionalProperties: false },
);

export type FindToolInput = Static<typeof findSchema>;

/** `structuredContent` of a successful find. */
export const findOutputSchema = Type.Object({
	files: Type.Array(Type.String(), { description: "Paths relative to the searched folder, `/` separators, sorted." }),
	truncated: Type.Boolean({ description: "More files matched than returned (limit or output size)." }),
});

/** What the UI gets in `details`. */
export interface FindToolDetails {
	/** Paths returned. */
	fileCount: number;
	/** The limit, when more files matched than it let through. */
	resultLimitReached?: number;
	/** Set when the output was cut to `DEFAULT_MAX_BYTES`. */
	truncation?: OutputTruncation;
}

/** All I/O of the find tool. */
export interface FindOperations {
	/** What is at `path`, links followed: a file, a folder, something else, or undefined for nothing. May throw. */
	stat(path: string): Promise<"file" | "directory" | "other" | undefined>;
	/**
	 * The files under `cwd` whose path relative to it matches `pattern` (fast-glob syntax; a pattern without
	 * `/` matches file names at any depth): relative paths with `/` separators, in any order. Must include
	 * hidden files and skip `.git` and `node_modules` folders and whatever the .gitignore files ignore.
	 * Rejects with `Operation aborted` when `signal` fires.
	 */
	glob(pattern: string, cwd: string, signal: AbortSignal | undefined): Promise<string[]>;
}

export interface FindToolOptions {
	/** Where the I/O goes. Default `localFindOperations`. */
	operations?: FindOperations;
}
