import { dirname } from "node:path";
import { errorText, withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { renderErrorResult, resultText } from "../edit/render.js";
import { errorCode } from "../error-text.js";
import { toolPathResolver } from "../existing-path.js";
import { assertUnchangedSinceSeen, type FileVersion, rememberFileVersion } from "../file-versions.js";
import { withWorkspaceMutationQueue } from "../mutation-queue.js";
import { permissionDeniedError } from "../permission-denied.js";
import { localFileSystem } from "../workspace/local/file-system.js";
import type { Workspace, WorkspaceFileSystem } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import {
	type WriteOperations,
	type WriteTargetInfo,
	type WriteToolDetails,
	type WriteToolOptions,
	writeOutputSchema,
	writeSchema,
} from "./types.js";

function versionOf(info: WriteTargetInfo): FileVersion {
	return info.mtimeMs === undefined ? { size: info.size ?? 0 } : { size: info.size ?? 0, mtimeMs: info.mtimeMs };
}

/** The write tool's I/O on a workspace's file system. */
export function writeOperationsOn(fs: WorkspaceFileSystem): WriteOperations {
	return {
		mkdir: (path) => fs.mkdir(path),
		writeFileAtomic: (path, data) => fs.writeFileAtomic(path, data),
		// Nothing at `path` also when a parent is a file (ENOTDIR); mkdir then says why it cannot be created.
		stat: async (path) => {
			const stats = await fs.stat(path);
			if (stats === undefined) return undefined;
			return withoutUndefined({
				isDirectory: stats.kind === "directory",
				isSpecial: stats.kind === "other",
				size: stats.size,
				mtimeMs: stats.mtimeMs,
			});
		},
	};
}

/** The local file system, with writes through `writeFileAtomic` (temporary file + rename). */
export const localWriteOperations: WriteOperations = writeOperationsOn(localFileSystem);

function describeWriteError(error: unknown, displayPath: string): Error {
	const reason = error instanceof Error ? error.message : (errorCode(error) ?? errorText(error));
	switch (errorCode(error)) {
		case "ENOTDIR":
		case "EEXIST":
			return new Error(`Cannot write ${displayPath}: a part of its folder path is a file, not a folder (${reason}).`);
		case "EISDIR":
			return new Error(`Cannot write ${displayPath}: it is a folder; give the path of a file inside it.`);
		case "EACCES":
		case "EPERM":
		case "EROFS":
			return permissionDeniedError(displayPath);
		default:
			return new Error(`Cannot write ${displayPath}: ${reason}`);
	}
}

/** Runs one file operation, turning its failure into a message that says what to do. */
async function withWriteErrors<T>(displayPath: string, operation: () => Promise<T>): Promise<T> {
	try {
		return await operation();
	} catch (error) {
		throw describeWriteError(error, displayPath);
	}
}

/** The `write` tool: creates or replaces a whole file, atomically, creating missing folders. */
export function createWriteToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: WriteToolOptions = {},
): ToolDefinition<typeof writeSchema, WriteToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const operations = options.operations ?? writeOperationsOn(workspace.fs);
	const resolvePath = toolPathResolver(workspace, options.operations !== undefined);
	return defineBoundedTool({
		name: "write",
		label: "Write",
		description:
			"Write a file: creates it (and any missing parent folders) or replaces its whole content. The write is atomic, and an existing file keeps its permissions.",
		promptSnippet: "Create or overwrite a whole file (parent folders are created)",
		promptGuidelines: ["Use write for new files and complete rewrites; to change part of an existing file, use edit."],
		parameters: writeSchema,
		outputSchema: writeOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		annotations: { destructiveHint: true },
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const displayPath = params.path;
			const path = await resolvePath(params.path);
			const data = Buffer.from(params.content ?? "", "utf8");
			return withWorkspaceMutationQueue(workspace, path, async () => {
				throwIfAborted(signal);
				const existing = await withWriteErrors(displayPath, () => operations.stat(path));
				if (existing?.isDirectory) throw describeWriteError({ code: "EISDIR" }, displayPath);
				if (existing?.isSpecial)
					throw new Error(
						`${displayPath} is not a regular file (a device, socket or named pipe); write only creates or replaces regular files.`,
					);
				if (existing?.size !== undefined) assertUnchangedSinceSeen(workspace, path, versionOf(existing), displayPath);
				const created = existing === undefined;
				if (created) await withWriteErrors(displayPath, () => operations.mkdir(dirname(path)));
				throwIfAborted(signal);
				await withWriteErrors(displayPath, () => operations.writeFileAtomic(path, data));
				const written = await operations.stat(path).catch(() => undefined);
				rememberFileVersion(workspace, path, written?.size === undefined ? undefined : versionOf(written));
				const details: WriteToolDetails = { path, bytes: data.length, created };
				const how = created ? "created" : "overwritten";
				return {
					content: [
						{
							type: "text",
							text: `Wrote ${data.length} byte${data.length === 1 ? "" : "s"} to ${displayPath} (${how}).`,
						},
					],
					details,
					structuredContent: { path, bytes: data.length, created },
				};
			});
		},
		renderCall(args, theme) {
			const content = typeof args?.content === "string" ? args.content : "";
			const lines = content === "" ? 0 : content.split("\n").length;
			return `${theme.bold("write")} ${theme.accent(String(args?.path ?? ""))}${theme.muted(` (${lines} line${lines === 1 ? "" : "s"})`)}`;
		},
		renderResult(result, { expanded }, theme) {
			const text = resultText(result);
			return result.isError ? renderErrorResult(text, expanded, theme) : theme.success(text);
		},
	});
}
