import { isAbsolute } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import type { Theme, ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { toolPathResolver } from "../existing-path.js";
import { gitUserOf } from "../search/git-excludes.js";
import { walkGlob } from "../search/glob-walk.js";
import { describeTruncation, outputCutNotice } from "../search/output-cut.js";
import { renderListing } from "../search/render-listing.js";
import { truncateHead } from "../truncate.js";
import { localFileSystem } from "../workspace/local/file-system.js";
import { localGlob } from "../workspace/local/glob.js";
import type { Workspace } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import {
	DEFAULT_FIND_LIMIT,
	type FindOperations,
	type FindToolDetails,
	type FindToolInput,
	type FindToolOptions,
	findOutputSchema,
	findSchema,
} from "./types.js";
import { unclosedBracket } from "./unclosed-bracket.js";

/**
 * The find tool's I/O on a workspace: `stat` of its file system, and its `glob` fast path when it has
 * one, else the walker over its file system.
 */
export function findOperationsOn(
	workspace: Pick<Workspace, "fs" | "glob"> & Partial<Pick<Workspace, "home" | "isLocal">>,
): FindOperations {
	const { fs } = workspace;
	const gitUser =
		workspace.home === undefined ? undefined : gitUserOf({ home: workspace.home, isLocal: workspace.isLocal ?? false });
	return {
		stat: async (path) => (await fs.stat(path))?.kind,
		glob: (pattern, cwd, signal) =>
			workspace.glob ? workspace.glob(pattern, cwd, signal) : walkGlob(fs, pattern, cwd, signal, gitUser),
	};
}

/** The local file system (`localGlob`: its own walk, patterns read as fast-glob reads them). */
export const localFindOperations: FindOperations = findOperationsOn({ fs: localFileSystem, glob: localGlob });

function optionalLimit(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
		throw new Error(`limit must be a whole number of 1 or more (got ${JSON.stringify(value)}).`);
	return value;
}

/**
 * Most characters of a find pattern. Far longer globs fail in the matchers with terse messages of their
 * own, at lengths that differ by matcher and pattern (locally a plain 33,000-character glob compiles to a
 * regular expression V8 finds too large; picomatch refuses any past 64 KiB; the walk over a workspace's
 * file system takes them), so one limit, well under all of them, keeps local and SSH finds alike.
 */
export const MAX_FIND_PATTERN_CHARS = 10_000;

function checkPatternLength(pattern: string): void {
	if (pattern.length <= MAX_FIND_PATTERN_CHARS) return;
	throw new Error(
		`pattern is too long: ${pattern.length} characters, while find takes globs of at most ${MAX_FIND_PATTERN_CHARS}. ` +
			"Give a shorter glob that matches what the names have in common (e.g. `src/**/*.test.ts`), or split a long " +
			"`{a,b,…}` list into several finds.",
	);
}

function comparePaths(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** Creates the `find` tool: files by glob, respecting .gitignore. Folders are never returned, only files. */
export function createFindToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: FindToolOptions = {},
): ToolDefinition<typeof findSchema, FindToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const operations = options.operations ?? findOperationsOn(workspace);
	const resolvePath = toolPathResolver(workspace, options.operations !== undefined);
	return defineBoundedTool<typeof findSchema, FindToolDetails>({
		name: "find",
		label: "Find",
		description:
			"Find files by glob pattern. Returns file paths (never folders) relative to the searched folder, sorted, " +
			"one per line. Respects .gitignore, includes hidden files, skips .git and node_modules. A pattern without `/` " +
			`matches file names at any depth. Returns at most ${DEFAULT_FIND_LIMIT} paths unless limit says otherwise.`,
		promptSnippet: "Find files by glob pattern (respects .gitignore)",
		promptGuidelines: ["Use find to look for files by name or path instead of running find or ls -R through bash."],
		parameters: findSchema,
		outputSchema: findOutputSchema,
		annotations: { readOnlyHint: true, idempotentHint: true },
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const pattern = typeof params.pattern === "string" ? params.pattern.trim() : "";
			if (pattern === "") throw new Error("pattern is required: give a glob such as `*.ts` or `src/**/*.json`.");
			if (isAbsolute(pattern) || pattern.split("/").includes(".."))
				throw new Error(
					`The pattern ${JSON.stringify(pattern)} leaves the searched folder. Give a relative pattern and put the folder in path.`,
				);
			checkPatternLength(pattern);
			const limit = optionalLimit(params.limit) ?? DEFAULT_FIND_LIMIT;
			const root = await resolvePath(typeof params.path === "string" && params.path.trim() !== "" ? params.path : ".");
			const kind = await operations.stat(root);
			if (kind === undefined) throw new Error(`Path not found: ${root}`);
			if (kind !== "directory") throw new Error(`Not a directory: ${root}`);
			throwIfAborted(signal);

			const all = (await operations.glob(pattern, root, signal)).sort(comparePaths);
			throwIfAborted(signal);
			if (all.length === 0) {
				const bracket = unclosedBracket(pattern);
				const hint =
					bracket === undefined
						? ""
						: ` (its "${bracket}" is never closed, so it was matched as a plain character: close it, e.g. "[abc]" or "{a,b}", or escape a literal one as "\\${bracket}")`;
				return {
					content: [{ type: "text", text: `No files found matching pattern${hint}` }],
					structuredContent: { files: [], truncated: false },
					details: { fileCount: 0 },
				};
			}
			const limitReached = all.length > limit;
			const kept = limitReached ? all.slice(0, limit) : all;
			const truncation = truncateHead(kept.join("\n"));
			const files = truncation.truncated ? kept.slice(0, truncation.outputLines) : kept;
			const notices: string[] = [];
			if (limitReached)
				notices.push(`[${limit} results limit reached. Use limit=${limit * 2} for more, or refine the pattern]`);
			if (truncation.truncated)
				notices.push(
					outputCutNotice(truncation, `${files.length} of ${kept.length} paths`, "Use a narrower pattern or path"),
				);
			const text = notices.length > 0 ? `${truncation.content}\n\n${notices.join("\n")}` : truncation.content;
			const details: FindToolDetails = { fileCount: files.length };
			if (limitReached) details.resultLimitReached = limit;
			if (truncation.truncated) details.truncation = describeTruncation(truncation);
			return {
				content: [{ type: "text", text }],
				structuredContent: { files, truncated: limitReached || truncation.truncated },
				details,
			};
		},
		renderCall: renderFindCall,
		renderResult: renderFindResult,
	});
}

/** One line: `find pattern in path`. */
function renderFindCall(args: FindToolInput, theme: Theme): string {
	const pattern = typeof args.pattern === "string" ? args.pattern : "";
	const where = typeof args.path === "string" && args.path !== "" ? ` ${theme.dim("in")} ${args.path}` : "";
	const limit = typeof args.limit === "number" ? theme.dim(` (limit ${args.limit})`) : "";
	return `${theme.bold("find")} ${theme.accent(pattern)}${where}${limit}`;
}

/** The file count and the first paths (all when expanded), then any notice. */
function renderFindResult(
	result: AgentToolResult<FindToolDetails>,
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): string {
	return renderListing(result, options, theme, {
		pending: "Searching…",
		count: result.details?.fileCount,
		countText: (count) => `${count} ${count === 1 ? "file" : "files"}`,
		preview: 8,
	});
}
