// Schemas and types of the grep tool.
import { type Static, Type } from "@sinclair/typebox";
import type { OutputTruncation } from "../search/output-cut.js";
import { GREP_MAX_LINE_LENGTH } from "../truncate.js";
import type { BuiltinEngineOperations } from "./builtin-engine.js";
import type { GrepEngineName } from "./engine.js";

/** Matches returned when the call gives no `limit`. */
export const DEFAULT_GREP_LIMIT = 100;

export const grepSchema = Type.Object(
	{
		pattern: Type.String({
			description: "Regular expression to search for (ripgrep / JavaScript syntax), or plain text with literal: true.",
		}),
		path: Type.Optional(
			Type.String({
				description: "Folder or file to search, relative to the working folder. Default: the working folder.",
			}),
		),
		glob: Type.Optional(
			Type.String({
				description:
					"Only search files matching this glob: `*.ts` matches file names at any depth, `src/**/*.{ts,tsx}` paths " +
					"under the searched folder; a leading `!` excludes instead.",
			}),
		),
		ignoreCase: Type.Optional(Type.Boolean({ description: "Match regardless of case. Default false." })),
		literal: Type.Optional(
			Type.Boolean({ description: "Treat pattern as plain text, not a regular expression. Default false." }),
		),
		context: Type.Optional(
			Type.Integer({ minimum: 0, description: "Lines of context to show before and after each match. Default 0." }),
		),
		limit: Type.Optional(
			Type.Integer({ minimum: 1, description: `Most matching lines to return. Default ${DEFAULT_GREP_LIMIT}.` }),
		),
	},
	{ additionalProperties: false },
);

export type GrepToolInput = Static<typeof grepSchema>;

/** `structuredContent` of a successful grep. */
export const grepOutputSchema = Type.Object({
	matches: Type.Array(
		Type.Object({
			path: Type.String({ description: "Relative to the searched folder, `/` separators; a single file's name." }),
			line: Type.Integer({ description: "1-indexed line number." }),
			text: Type.String({ description: `The line, cut at ${GREP_MAX_LINE_LENGTH} characters.` }),
		}),
	),
	truncated: Type.Boolean({ description: "More matches exist than returned (limit or output size)." }),
	skippedFiles: Type.Optional(
		Type.Integer({ minimum: 1, description: "Files a permission rule kept from being read; absent when none." }),
	),
});

/** What the UI gets in `details`. */
export interface GrepToolDetails {
	/** The engine that produced the result. */
	engine: GrepEngineName;
	/** Matching lines returned. */
	matchCount: number;
	/** The limit, when more matches exist than it let through. */
	matchLimitReached?: number;
	/** Some lines were cut at `GREP_MAX_LINE_LENGTH` characters. */
	linesTruncated?: boolean;
	/** Set when the output was cut to `DEFAULT_MAX_BYTES`. */
	truncation?: OutputTruncation;
	/** Files left unread because `GrepToolOptions.skipPaths` covers them; absent when none were. */
	skippedFiles?: number;
}

/** All I/O of the grep tool's built-in engine (the ripgrep engine runs `rg` on the local disk). */
export interface GrepOperations extends BuiltinEngineOperations {
	/** What is at `path`, links followed: a file, a folder, something else, or undefined for nothing. May throw. */
	stat(path: string): Promise<"file" | "directory" | "other" | undefined>;
}

export interface GrepToolOptions {
	/**
	 * Where the built-in engine's I/O goes. Default `localGrepOperations`. Passing operations makes
	 * `"auto"` pick the built-in engine, since rg can only search the local disk.
	 */
	operations?: GrepOperations;
	/**
	 * Which engine searches. `"auto"` (default): ripgrep when `rg` is on PATH (looked up once per PATH
	 * value), else the built-in one; a pattern rg's syntax rejects (look-around, back-references), or an
	 * rg that does not start, falls back to the built-in engine; so does a pattern (with the glob) over
	 * 32 KiB, too long for rg's command line. `"builtin"`: always the TypeScript engine. `"ripgrep"`:
	 * always rg; a call fails with a clear error when rg is missing, rejects the pattern or the pattern
	 * is too long. Both give identical output.
	 */
	engine?: "auto" | GrepEngineName;
	/**
	 * Files the search must leave unread (a session's `Read(…)` deny rules): called once per call with the
	 * absolute path of the folder (or file) searched, resolves to a test of paths relative to it (`/`
	 * separators; for a single file, its name), or undefined when nothing there is kept out. Files it
	 * covers are not searched, their lines never reach the output, and the result says how many there were
	 * (`details.skippedFiles`). Both engines count alike. A rejection fails the call.
	 */
	skipPaths?: (root: string) => Promise<((relativePath: string) => boolean) | undefined>;
}
