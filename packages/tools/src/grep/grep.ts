import type { ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { toolPathResolver } from "../existing-path.js";
import { gitUserOf } from "../search/git-excludes.js";
import { describeTruncation, outputCutNotice } from "../search/output-cut.js";
import { searchOperationsOn } from "../search/workspace-search.js";
import { DEFAULT_MAX_BYTES, formatSize, GREP_MAX_LINE_LENGTH, truncateHead } from "../truncate.js";
import { localFileSystem } from "../workspace/local/file-system.js";
import type { Workspace, WorkspaceFileSystem } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import { runBuiltinEngine } from "./builtin-engine.js";
import type { GrepEngineName, GrepEngineRequest, GrepEngineResult } from "./engine.js";
import { formatGrep, type GrepMatch } from "./format.js";
import { renderGrepCall, renderGrepResult } from "./render.js";
import { RipgrepRejectedError, ripgrepArgumentProblem, runRipgrepEngine } from "./ripgrep-engine.js";
import { findRipgrep, RipgrepUnavailableError } from "./ripgrep-process.js";
import {
	DEFAULT_GREP_LIMIT,
	type GrepOperations,
	type GrepToolDetails,
	type GrepToolOptions,
	grepOutputSchema,
	grepSchema,
} from "./types.js";

/** The built-in engine's I/O on a workspace's file system. */
export function grepOperationsOn(fs: WorkspaceFileSystem): GrepOperations {
	return { ...searchOperationsOn(fs), stat: async (path) => (await fs.stat(path))?.kind };
}

/** The local file system. */
export const localGrepOperations: GrepOperations = grepOperationsOn(localFileSystem);

function optionalInteger(name: string, value: unknown, minimum: number): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value < minimum)
		throw new Error(`${name} must be a whole number of ${minimum} or more (got ${JSON.stringify(value)}).`);
	return value;
}

/** The result's line about files a permission rule kept out of the search. */
function skippedFilesNotice(count: number): string {
	const files = count === 1 ? "1 file" : `${count} files`;
	return `[Skipped ${files} that a permission rule keeps from being read]`;
}

const skippedField = (count: number) => (count > 0 ? { skippedFiles: count } : {});

/** Creates the `grep` tool: searches file contents, respecting .gitignore, with ripgrep or the built-in engine. */
export function createGrepToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: GrepToolOptions = {},
): ToolDefinition<typeof grepSchema, GrepToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const operations = options.operations ?? grepOperationsOn(workspace.fs);
	const resolvePath = toolPathResolver(workspace, options.operations !== undefined);
	const mode = options.engine ?? "auto";
	const gitUser = gitUserOf(workspace);

	async function search(request: GrepEngineRequest): Promise<{ engine: GrepEngineName; result: GrepEngineResult }> {
		const builtin = async () => ({ engine: "builtin" as const, result: await runBuiltinEngine(request, operations) });
		if (mode === "builtin" || (mode === "auto" && options.operations !== undefined)) return builtin();
		// A pattern too long for rg's command line would make the spawn fail (or, over SSH, the shell).
		const tooLong = ripgrepArgumentProblem(request);
		if (tooLong !== undefined) {
			if (mode === "auto") return builtin();
			throw new Error(tooLong);
		}
		const executable = await findRipgrep(workspace);
		if (executable === undefined) {
			if (mode === "auto") return builtin();
			throw new Error(
				'The ripgrep engine needs `rg` on PATH and none was found. Install ripgrep or use engine "builtin".',
			);
		}
		try {
			const host = { processes: workspace.processes, executable, fs: workspace.fs };
			return { engine: "ripgrep", result: await runRipgrepEngine(host, request) };
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

	return defineBoundedTool<typeof grepSchema, GrepToolDetails>({
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
			const root = await resolvePath(typeof params.path === "string" && params.path.trim() !== "" ? params.path : ".");
			const kind = await operations.stat(root);
			if (kind === undefined) throw new Error(`Path not found: ${root}`);
			if (kind === "other") throw new Error(`Not a file or folder: ${root}`);
			throwIfAborted(signal);
			const skip = options.skipPaths === undefined ? undefined : await options.skipPaths(root);
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
				gitUser,
				...(skip === undefined ? {} : { skip }),
			});
			const skippedNotice = result.skipped > 0 ? skippedFilesNotice(result.skipped) : undefined;
			const formatted = formatGrep(result.files, limit, context);
			if (formatted.matches.length === 0) {
				const details: GrepToolDetails = { engine, matchCount: 0 };
				if (result.skipped > 0) details.skippedFiles = result.skipped;
				return {
					content: [
						{ type: "text", text: skippedNotice ? `No matches found\n\n${skippedNotice}` : "No matches found" },
					],
					structuredContent: { matches: [], truncated: false, ...skippedField(result.skipped) },
					details,
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
			if (skippedNotice) notices.push(skippedNotice);
			const text = notices.length > 0 ? `${truncation.content}\n\n${notices.join("\n")}` : truncation.content;
			const details: GrepToolDetails = { engine, matchCount: shownMatches.length };
			if (formatted.limitReached) details.matchLimitReached = limit;
			if (formatted.linesTruncated) details.linesTruncated = true;
			if (truncation.truncated) details.truncation = describeTruncation(truncation);
			if (result.skipped > 0) details.skippedFiles = result.skipped;
			const matches = shownMatches.map((match: GrepMatch) => ({
				path: match.path,
				line: match.line,
				text: match.text,
			}));
			return {
				content: [{ type: "text", text }],
				structuredContent: {
					matches,
					truncated: formatted.limitReached || truncation.truncated,
					...skippedField(result.skipped),
				},
				details,
			};
		},
		renderCall: renderGrepCall,
		renderResult: renderGrepResult,
	});
}
