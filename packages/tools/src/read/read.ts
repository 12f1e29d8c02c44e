import { errorText, withoutUndefined } from "@gantry/ai";
import type { ExtensionToolContext, ToolDefinition } from "@gantry/extensions";
import { throwIfAborted } from "../abort.js";
import { defineBoundedTool } from "../bounded-errors.js";
import { errorCode } from "../error-text.js";
import { toolPathResolver } from "../existing-path.js";
import { rememberFileVersion } from "../file-versions.js";
import { detectImageFormat } from "../image/detect.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../truncate.js";
import { localFileSystem } from "../workspace/local/file-system.js";
import type { Workspace } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import { BINARY_SNIFF_BYTES, looksBinary } from "./binary.js";
import { readImageFile } from "./read-image.js";
import { readTextFile } from "./read-text.js";
import { renderReadCall, renderReadResult } from "./render.js";
import {
	type ReadFileHandle,
	type ReadOperations,
	type ReadOptionSource,
	type ReadToolDetails,
	type ReadToolOptions,
	readOutputSchema,
	readSchema,
} from "./types.js";

/** Reads the local file system (the local Workspace's files). */
export const localReadOperations: ReadOperations = localFileSystem;

function currentValue<T>(source: ReadOptionSource<T> | undefined): T | undefined {
	return typeof source === "function" ? (source as () => T | undefined)() : source;
}

function checkLineNumber(name: string, value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
		throw new Error(`${name} must be a whole number of 1 or more (got ${JSON.stringify(value)}).`);
	return value;
}

function describeOpenError(path: string, error: unknown): Error {
	const code = errorCode(error);
	if (code === "EACCES" || code === "EPERM") return new Error(`Cannot read ${path}: permission denied.`);
	return new Error(`Cannot read ${path}: ${errorText(error)}`);
}

/** Creates the `read` tool: pages of text files, images for the model; a binary file is an error giving its size. */
export function createReadToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: ReadToolOptions = {},
): ToolDefinition<typeof readSchema, ReadToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const operations = options.operations ?? workspace.fs;
	const resolvePath = toolPathResolver(workspace, options.operations !== undefined);
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	return defineBoundedTool<typeof readSchema, ReadToolDetails>({
		name: "read",
		label: "Read",
		description:
			`Read a file. Text comes back exactly as in the file, at most ${maxLines} lines or ${formatSize(maxBytes)} ` +
			"per call; a notice at the end says how to continue (offset is the 1-indexed line to start at, limit the " +
			"number of lines). Images (JPEG, PNG, GIF, WebP, BMP) are returned as images, scaled to the model's limits. " +
			"Reading a binary file fails with its size; it is not shown.",
		promptSnippet: "Read a file: text by pages (offset/limit); images are shown to the model",
		promptGuidelines: [
			"Use read to look at files instead of cat, head or sed.",
			"For long files read the part you need with offset and limit; follow the `Use offset=N to continue` notice for more.",
		],
		parameters: readSchema,
		outputSchema: readOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		annotations: { readOnlyHint: true, idempotentHint: true },
		async execute(_toolCallId, params, signal, _onUpdate, ctx: ExtensionToolContext | undefined) {
			throwIfAborted(signal);
			if (typeof params.path !== "string" || params.path.trim() === "")
				throw new Error("path is required: give the file to read.");
			const offset = checkLineNumber("offset", params.offset) ?? 1;
			const limit = checkLineNumber("limit", params.limit);
			const path = await resolvePath(params.path);

			const stats = await operations.stat(path);
			if (stats === undefined) throw new Error(`File not found: ${path}`);
			if (stats.kind === "directory") throw new Error(`${path} is a folder, not a file. Use ls to list what it holds.`);
			if (stats.kind !== "file")
				throw new Error(`${path} is not a regular file (a device, socket or pipe); read skips it.`);
			throwIfAborted(signal);

			let handle: ReadFileHandle;
			try {
				handle = await operations.open(path);
			} catch (error) {
				throw describeOpenError(path, error);
			}
			try {
				const head = Buffer.allocUnsafe(Math.min(BINARY_SNIFF_BYTES, stats.size));
				const headLength = head.length === 0 ? 0 : await handle.read(head, 0, head.length, 0);
				const headBytes = head.subarray(0, headLength);
				throwIfAborted(signal);
				const imageFormat = detectImageFormat(headBytes);
				if (imageFormat !== undefined) {
					const model = currentValue(options.model) ?? ctx?.model;
					return await readImageFile(
						withoutUndefined({
							path,
							handle,
							size: stats.size,
							model,
							limits: currentValue(options.imageResize) ?? model?.inputLimits?.images?.resize,
							autoResize: options.autoResizeImages ?? true,
							signal,
						}),
					);
				}
				if (looksBinary(headBytes)) throw binaryFileError(path, stats.size);
				const page = await readTextFile(
					withoutUndefined({ path, handle, size: stats.size, offset, limit, maxLines, maxBytes, signal }),
				);
				rememberFileVersion(workspace, path, withoutUndefined({ size: stats.size, mtimeMs: stats.mtimeMs }));
				return page;
			} finally {
				await handle.close();
			}
		},
		renderCall: renderReadCall,
		renderResult: renderReadResult,
	});
}

/** Reading a binary file is a failure (an error result), with a hint on how to look at it instead. */
function binaryFileError(path: string, size: number): Error {
	return new Error(
		`Binary file (${formatSize(size)}) — not shown: ${path}. Inspect it with bash (e.g. \`file\` or \`xxd | head\`).`,
	);
}
