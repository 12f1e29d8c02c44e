import { defineTool, type ToolDefinition } from "@gantry/extensions";
import { type Static, Type } from "@sinclair/typebox";
import { type BuiltinEngineOperations, runBuiltinEngine } from "./grep/builtin-engine.js";
import type { GrepEngineName, GrepEngineRequest, GrepEngineResult } from "./grep/engine.js";
import { formatGrep, type GrepMatch } from "./grep/format.js";
import { renderGrepCall, renderGrepResult } from "./grep/render.js";
import { RipgrepRejectedError, runRipgrepEngine } from "./grep/ripgrep-engine.js";
import { findRipgrep, RipgrepUnavailableError } from "./grep/ripgrep-process.js";
import { resolveToolPath } from "./paths.js";
import { throwIfAborted } from "./search/abort.js";
import { localExists, localOpen, localReaddir, localReadText, localStat } from "./search/local-fs.js";
import { describeTruncation, type OutputTruncation, outputCutNotice } from "./search/output-cut.js";
import { DEFAULT_MAX_BYTES, formatSize, GREP_MAX_LINE_LENGTH, truncateHead } from "./truncate.js";

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
}

/** All I/O of the grep tool's built-in engine (the ripgrep engine runs `rg` on the local disk). */
export interface GrepOperations extends BuiltinEngineOperations {
	/** What is at `path`, links followed: a file, a folder, something else, or undefined for nothing. May throw. */
	stat(path: string): Promise<"file" | "directory" | "other" | undefined>;
}

/** The local file system. */
export const localGrepOperations: GrepOperations = {
	async stat(path) {
		const stats = await localStat(path);
		if (stats === undefined) return undefined;
		return stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
	},
	readdir: localReaddir,
	readText: localReadText,
	exists: localExists,
	open: localOpen,
};

export interface GrepToolOptions {
	/**
	 * Where the built-in engine's I/O goes. Default `localGrepOperations`. Passing operations makes
	 * `"auto"` pick the built-in engine, since rg can only search the local disk.
	 */
	operations?: GrepOperations;
	/**
	 * Which engine searches. `"auto"` (default): ripgrep when `rg` is on PATH (looked up once per PATH
	 * value), else the built-in one; a pattern rg's syntax rejects (look-around, back-references), or an
	 * rg that does not start, falls back to the built-in engine. `"builtin"`: always the TypeScript engine. `"ripgrep"`: always rg; a
	 * call fails with a clear error when rg is missing or rejects the pattern. Both give identical output.
	 */
	engine?: "auto" | GrepEngineName;
}

function optionalInteger(name: string, value: unknown, minimum: number): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value < minimum)
		throw new Error(`${name} must be a whole number of ${minimum} or more (got ${JSON.stringify(value)}).`);
	return value;
}

/** Creates the `grep` tool: searches file contents, respecting .gitignore, with ripgrep or the built-in engine. */
export function createGrepToolDefinition(
	cwd: string,
	options: GrepToolOptions = {},
): ToolDefinition<typeof grepSchema, GrepToolDetails> {
	const operations = options.operations ?? localGrepOperations;
	const mode = options.engine ?? "auto";

	async function search(request: GrepEngineRequest): Promise<{ engine: GrepEngineName; result: GrepEngineResult }> {
		const builtin = async () => ({ engine: "builtin" as const, result: await runBuiltinEngine(request, operations) });
		if (mode === "builtin" || (mode === "auto" && options.operations !== undefined)) return builtin();
		const executable = await findRipgrep();
		if (executable === undefined) {
			if (mode === "auto") return builtin();
			throw new Error(
				'The ripgrep engine needs `rg` on PATH and none was found. Install ripgrep or use engine "builtin".',
			);
		}
		try {
			return { engine: "ripgrep", result: await runRipgrepEngine(executable, request, localGrepOperations) };
		} catch (error) {
			if (error instanceof RipgrepUnavailableError) {
				if (mode === "auto") return builtin();
				throw error;
			}
			if (!(error instanceof RipgrepRejectedError)) throw error;
			if (mode === "auto") return builtin();
			throw new Error(`ripgrep rejected the pattern ${JSON.stringify(request.pattern)}: ${error.message}`);
		}
	}

	return defineTool<typeof grepSchema, GrepToolDetails>({
		name: "grep",
		label: "Grep",
		description:
			"Search file contents for a regular expression (or plain text with literal: true). Searches a folder " +
			"recursively (respecting .gitignore, including hidden files, skipping binary files) or a single file. " +
			"Output lines are `path:line: text`, context lines `path-line- text`, paths relative to the searched " +
			`folder, sorted by path then line. Returns at most ${DEFAULT_GREP_LIMIT} matches unless limit says otherwise; ` +
			`lines are cut at ${GREP_MAX_LINE_LENGTH} characters and the output at ${formatSize(DEFAULT_MAX_BYTES)}.`,
		promptSnippet: "Search file contents by regex or plain text (respects .gitignore)",
		promptGuidelines: [
			"Use grep to search file contents instead of running grep or rg through bash.",
			"Narrow broad searches with path and glob (e.g. glob `*.ts`); use literal: true for text with regex characters.",
		],
		parameters: grepSchema,
		outputSchema: grepOutputSchema,
		annotations: { readOnlyHint: true, idempotentHint: true },
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const pattern = params.pattern;
			if (typeof pattern !== "string" || pattern === "")
				throw new Error("pattern is required: give the text or regular expression to search for.");
			const limit = optionalInteger("limit", params.limit, 1) ?? DEFAULT_GREP_LIMIT;
			const context = optionalInteger("context", params.context, 0) ?? 0;
			const glob = typeof params.glob === "string" && params.glob.trim() !== "" ? params.glob.trim() : undefined;
			const root = resolveToolPath(
				cwd,
				typeof params.path === "string" && params.path.trim() !== "" ? params.path : ".",
			);
			const kind = await operations.stat(root);
			if (kind === undefined) throw new Error(`Path not found: ${root}`);
			if (kind === "other") throw new Error(`Not a file or folder: ${root}`);
			throwIfAborted(signal);

			const { engine, result } = await search({
				root,
				isFile: kind === "file",
				pattern,
				literal: params.literal === true,
				ignoreCase: params.ignoreCase === true,
				context,
				maxMatches: limit + 1,
				glob,
				signal,
			});
			const formatted = formatGrep(result.files, limit, context);
			if (formatted.matches.length === 0) {
				return {
					content: [{ type: "text", text: "No matches found" }],
					structuredContent: { matches: [], truncated: false },
					details: { engine, matchCount: 0 },
				};
			}
			const truncation = truncateHead(formatted.lines.join("\n"));
			const shownMatches = truncation.truncated
				? formatted.matches.slice(0, formatted.matchesThrough[truncation.outputLines - 1] ?? 0)
				: formatted.matches;
			const notices: string[] = [];
			if (formatted.limitReached)
				notices.push(`[${limit} matches limit reached. Use limit=${limit * 2} for more, or refine the pattern]`);
			if (formatted.linesTruncated)
				notices.push(`[Some lines were cut at ${GREP_MAX_LINE_LENGTH} characters. Use read to see them whole]`);
			if (truncation.truncated)
				notices.push(
					outputCutNotice(
						truncation,
						`${shownMatches.length} of ${formatted.matches.length} matches`,
						"Use a smaller limit, a narrower path or glob, or a more specific pattern",
					),
				);
			const text = notices.length > 0 ? `${truncation.content}\n\n${notices.join("\n")}` : truncation.content;
			const details: GrepToolDetails = { engine, matchCount: shownMatches.length };
			if (formatted.limitReached) details.matchLimitReached = limit;
			if (formatted.linesTruncated) details.linesTruncated = true;
			if (truncation.truncated) details.truncation = describeTruncation(truncation);
			const matches = shownMatches.map((match: GrepMatch) => ({
				path: match.path,
				line: match.line,
				text: match.text,
			}));
			return {
				content: [{ type: "text", text }],
				structuredContent: { matches, truncated: formatted.limitReached || truncation.truncated },
				details,
			};
		},
		renderCall: renderGrepCall,
		renderResult: renderGrepResult,
	});
}
