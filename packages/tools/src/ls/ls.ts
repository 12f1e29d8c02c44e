import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import { errorText } from "@gantry/ai";
import type { Theme, ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { errorCode } from "../error-text.js";
import { toolPathResolver } from "../existing-path.js";
import { describeTruncation, outputCutNotice } from "../search/output-cut.js";
import { renderListing } from "../search/render-listing.js";
import { truncateHead } from "../truncate.js";
import { localFileSystem } from "../workspace/local/file-system.js";
import type { Workspace, WorkspaceFileSystem } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import {
	DEFAULT_LS_LIMIT,
	type LsEntry,
	type LsEntryType,
	type LsOperations,
	type LsToolDetails,
	type LsToolInput,
	type LsToolOptions,
	lsOutputSchema,
	lsSchema,
} from "./types.js";

/** The ls tool's I/O on a workspace's file system: one listing, then a `stat` per symbolic link. */
export function lsOperationsOn(fs: WorkspaceFileSystem): LsOperations {
	const targetType = async (path: string): Promise<LsEntryType> => {
		const stats = await fs.stat(path).catch(() => undefined);
		return stats === undefined ? "other" : stats.kind;
	};
	return {
		stat: async (path) => (await fs.stat(path))?.kind,
		async readdir(path) {
			const listing = await fs.readdir(path);
			const entries: LsEntry[] = new Array(listing.length);
			for (const [index, { name, kind }] of listing.entries()) {
				entries[index] = { name, type: kind === "symlink" ? await targetType(join(path, name)) : kind };
			}
			return entries;
		},
	};
}

/** The local file system (a synchronous listing: one call, cheaper than a thread-pool round trip). */
export const localLsOperations: LsOperations = lsOperationsOn(localFileSystem);

function optionalLimit(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
		throw new Error(`limit must be a whole number of 1 or more (got ${JSON.stringify(value)}).`);
	return value;
}

/** Sorts case-insensitively; names differing only in case keep a stable, case-sensitive order. */
function sortEntries(entries: LsEntry[]): LsEntry[] {
	const keyed = entries.map((entry) => ({ entry, key: entry.name.toLowerCase() }));
	keyed.sort((left, right) => {
		if (left.key !== right.key) return left.key < right.key ? -1 : 1;
		return left.entry.name < right.entry.name ? -1 : left.entry.name > right.entry.name ? 1 : 0;
	});
	return keyed.map((item) => item.entry);
}

/** Lists `path`, turning a failure into an error that says what is there instead. */
async function listFolder(operations: LsOperations, path: string): Promise<LsEntry[]> {
	try {
		return await operations.readdir(path);
	} catch (error) {
		const kind = await operations.stat(path).catch(() => undefined);
		if (kind === undefined) throw new Error(`Path not found: ${path}`);
		if (kind !== "directory") throw new Error(`Not a directory: ${path}`);
		const code = errorCode(error);
		if (code === "EACCES" || code === "EPERM") throw new Error(`Cannot list ${path}: permission denied.`);
		throw new Error(`Cannot list ${path}: ${errorText(error)}`);
	}
}

/** Creates the `ls` tool: one folder's entries, sorted, dotfiles included, `/` after folders. */
export function createLsToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: LsToolOptions = {},
): ToolDefinition<typeof lsSchema, LsToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const operations = options.operations ?? lsOperationsOn(workspace.fs);
	const resolvePath = toolPathResolver(workspace, options.operations !== undefined);
	return defineBoundedTool<typeof lsSchema, LsToolDetails>({
		name: "ls",
		label: "List",
		description:
			"List a folder's entries, sorted case-insensitively, one per line, dotfiles included; folders (and links " +
			`to folders) end with \`/\`. Returns at most ${DEFAULT_LS_LIMIT} entries unless limit says otherwise.`,
		promptSnippet: "List a folder's entries",
		promptGuidelines: ["Use ls to see what a folder holds instead of running ls through bash."],
		parameters: lsSchema,
		outputSchema: lsOutputSchema,
		annotations: { readOnlyHint: true, idempotentHint: true },
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const limit = optionalLimit(params.limit) ?? DEFAULT_LS_LIMIT;
			const path = await resolvePath(typeof params.path === "string" && params.path.trim() !== "" ? params.path : ".");
			const all = sortEntries(await listFolder(operations, path));
			throwIfAborted(signal);
			if (all.length === 0) {
				return {
					content: [{ type: "text", text: "(empty directory)" }],
					structuredContent: { entries: [], truncated: false },
					details: { entryCount: 0 },
				};
			}
			const limitReached = all.length > limit;
			const kept = limitReached ? all.slice(0, limit) : all;
			const truncation = truncateHead(
				kept.map((entry) => (entry.type === "directory" ? `${entry.name}/` : entry.name)).join("\n"),
			);
			const entries = truncation.truncated ? kept.slice(0, truncation.outputLines) : kept;
			const notices: string[] = [];
			if (limitReached) notices.push(`[${limit} entries limit reached. Use limit=${limit * 2} for more]`);
			if (truncation.truncated)
				notices.push(outputCutNotice(truncation, `${entries.length} of ${kept.length} entries`, "Use a smaller limit"));
			const text = notices.length > 0 ? `${truncation.content}\n\n${notices.join("\n")}` : truncation.content;
			const details: LsToolDetails = { entryCount: entries.length };
			if (limitReached) details.entryLimitReached = limit;
			if (truncation.truncated) details.truncation = describeTruncation(truncation);
			return {
				content: [{ type: "text", text }],
				structuredContent: {
					entries: entries.map(({ name, type }) => ({ name, type })),
					truncated: limitReached || truncation.truncated,
				},
				details,
			};
		},
		renderCall: renderLsCall,
		renderResult: renderLsResult,
	});
}

/** One line: `ls path`. */
function renderLsCall(args: LsToolInput, theme: Theme): string {
	const path = typeof args.path === "string" && args.path !== "" ? args.path : ".";
	const limit = typeof args.limit === "number" ? theme.dim(` (limit ${args.limit})`) : "";
	return `${theme.bold("ls")} ${theme.accent(path)}${limit}`;
}

/** The entry count and the first entries (all when expanded), then any notice. */
function renderLsResult(
	result: AgentToolResult<LsToolDetails>,
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): string {
	return renderListing(result, options, theme, {
		pending: "Listing…",
		count: result.details?.entryCount,
		countText: (count) => `${count} ${count === 1 ? "entry" : "entries"}`,
		preview: 10,
	});
}
