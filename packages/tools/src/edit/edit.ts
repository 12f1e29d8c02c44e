import { errorText } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { errorCode } from "../error-text.js";
import { toolPathResolver } from "../existing-path.js";
import {
	assertUnchangedSinceSeen,
	changedMeanwhileError,
	type FileVersion,
	rememberFileVersion,
	versionsDiffer,
} from "../file-versions.js";
import { withWorkspaceMutationQueue } from "../mutation-queue.js";
import { isPermissionDenied, permissionDeniedError } from "../permission-denied.js";
import { localFileSystem } from "../workspace/local/file-system.js";
import type { Workspace, WorkspaceFileSystem } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import { applyChanges, normalizeEdits, planEdits } from "./apply.js";
import { prepareEditArguments } from "./arguments.js";
import { unifiedDiff } from "./diff.js";
import { renderDiffResult, renderErrorResult, resultText } from "./render.js";
import { decodeTextFile, type TextFile, toBuffer } from "./text-file.js";
import {
	type EditOperations,
	type EditToolDetails,
	type EditToolOptions,
	editOutputSchema,
	editSchema,
} from "./types.js";

/** The edit tool's I/O on a workspace's file system. */
export function editOperationsOn(fs: WorkspaceFileSystem): EditOperations {
	return {
		access: (path) => fs.access(path, "write"),
		readFile: (path) => fs.readFile(path),
		stat: (path) => fs.stat(path),
		writeFileAtomic: (path, data) => fs.writeFileAtomic(path, data),
	};
}

/** The local file system, with writes through `writeFileAtomic` (temporary file + rename). */
export const localEditOperations: EditOperations = editOperationsOn(localFileSystem);

/** Turns a file-system error into a message that says what to do next. */
function describeFileError(error: unknown, displayPath: string): Error {
	switch (errorCode(error)) {
		case "ENOENT":
		case "ENOTDIR":
			return new Error(`File not found: ${displayPath}. To create a new file, use the write tool.`);
		case "EISDIR":
			return new Error(`${displayPath} is a folder, not a file; give the path of the file to edit.`);
		case "EACCES":
		case "EPERM":
		case "EROFS":
			return permissionDeniedError(displayPath);
		default:
			return new Error(`Cannot edit ${displayPath}: ${errorText(error)}`);
	}
}

/** What is at `path` now, through the operations' optional `stat`; errors are described for the model. */
async function versionOf(operations: EditOperations, path: string, displayPath: string) {
	try {
		return await operations.stat?.(path);
	} catch (error) {
		throw describeFileError(error, displayPath);
	}
}

async function readTextFile(
	operations: EditOperations,
	path: string,
	displayPath: string,
): Promise<{ file: TextFile; version: FileVersion | undefined }> {
	try {
		await operations.access(path);
	} catch (error) {
		throw describeFileError(error, displayPath);
	}
	const version = await versionOf(operations, path, displayPath);
	// Reading a named pipe would wait for a writer forever (and abort cannot end a pending read).
	if (version?.kind === "other")
		throw new Error(
			`${displayPath} is not a regular file (a device, socket or named pipe); edit only changes regular files.`,
		);
	let buffer: Buffer;
	try {
		buffer = toBuffer(await operations.readFile(path));
	} catch (error) {
		throw describeFileError(error, displayPath);
	}
	const file = decodeTextFile(buffer);
	if (file === "binary")
		throw new Error(`${displayPath} looks like a binary file (${buffer.length} bytes); edit only changes text files.`);
	if (file === "not-utf8")
		throw new Error(
			`${displayPath} is not valid UTF-8 text; edit only changes UTF-8 files (use write to replace it whole).`,
		);
	return { file, version };
}

/**
 * The `edit` tool: exact text replacements in one file, all matched against the original text, written
 * atomically and only when every edit applies.
 */
export function createEditToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: EditToolOptions = {},
): ToolDefinition<typeof editSchema, EditToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const operations = options.operations ?? editOperationsOn(workspace.fs);
	const resolvePath = toolPathResolver(workspace, options.operations !== undefined);
	return defineBoundedTool({
		name: "edit",
		label: "Edit",
		description:
			"Edit a file by replacing exact text. Each edit's oldText must occur exactly once in the file (if no exact match exists, trailing whitespace, typographic quotes, Unicode dashes and special spaces are ignored). All edits are matched against the original file and must not overlap; if any fails, nothing is written. Line endings and a byte order mark are kept.",
		promptSnippet: "Replace exact text in a file (several non-overlapping replacements per call)",
		promptGuidelines: [
			"Read a file before editing it, and copy oldText exactly from what you read, including indentation.",
			"Make each oldText unique by including a few surrounding lines; keep it as short as that allows.",
			"Put all changes to one file in one edit call: every oldText is matched against the file as it was before the call.",
		],
		parameters: editSchema,
		outputSchema: editOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		annotations: { destructiveHint: true },
		prepareArguments: prepareEditArguments,
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const displayPath = params.path;
			const path = await resolvePath(params.path);
			const edits = normalizeEdits(params.edits ?? []);
			return withWorkspaceMutationQueue(workspace, path, async () => {
				throwIfAborted(signal);
				const { file, version } = await readTextFile(operations, path, displayPath);
				assertUnchangedSinceSeen(workspace, path, version, displayPath);
				const plan = planEdits(file, edits, displayPath);
				const data = applyChanges(file, plan.changes);
				const { diff, firstChangedLine } = unifiedDiff(file.lf, plan.changes, { path: displayPath });
				throwIfAborted(signal);
				// An append made while the edit was worked out would be lost by the replacement: look once more.
				const before = await versionOf(operations, path, displayPath);
				if (version && before && versionsDiffer(version, before)) throw changedMeanwhileError(displayPath);
				try {
					await operations.writeFileAtomic(path, data);
				} catch (error) {
					if (isPermissionDenied(error)) throw permissionDeniedError(displayPath);
					throw new Error(`Could not save ${displayPath} (${errorText(error)}); the file was left unchanged.`);
				}
				rememberFileVersion(workspace, path, await versionOf(operations, path, displayPath).catch(() => undefined));
				const count = plan.changes.length;
				const fuzzyNote =
					plan.fuzzyMatches > 0
						? ` (${plan.fuzzyMatches} matched only after normalising trailing whitespace, quotes, dashes, spaces and Unicode forms)`
						: "";
				return {
					content: [
						{ type: "text", text: `Applied ${count} edit${count === 1 ? "" : "s"} to ${displayPath}${fuzzyNote}.` },
					],
					details: { diff, firstChangedLine },
					structuredContent: { path, editsApplied: count, firstChangedLine },
				};
			});
		},
		renderCall(args, theme) {
			const count = Array.isArray(args?.edits) ? args.edits.length : 0;
			const suffix = count > 1 ? theme.muted(` (${count} edits)`) : "";
			return `${theme.bold("edit")} ${theme.accent(String(args?.path ?? ""))}${suffix}`;
		},
		renderResult(result, { expanded }, theme) {
			const text = resultText(result);
			if (result.isError) return renderErrorResult(text, expanded, theme);
			return renderDiffResult(text, result.details?.diff ?? "", expanded, theme);
		},
	});
}
