import { close, open, read } from "node:fs";
import { stat } from "node:fs/promises";
import type { AgentToolResult } from "@gantry/agent";
import type { Model } from "@gantry/ai";
import { defineTool, type ExtensionToolContext, type ToolDefinition } from "@gantry/extensions";
import { type Static, Type } from "@sinclair/typebox";
import { detectImageFormat } from "./image/detect.js";
import type { ImageResizeLimits } from "./image/limits.js";
import { resolveToolPath } from "./paths.js";
import { BINARY_SNIFF_BYTES, looksBinary } from "./read/binary.js";
import { throwIfAborted } from "./read/line-page.js";
import type { ReadTruncatedBy } from "./read/notice.js";
import { readImageFile } from "./read/read-image.js";
import { readTextFile } from "./read/read-text.js";
import { renderReadCall, renderReadResult } from "./read/render.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "./truncate.js";

export const readSchema = Type.Object(
	{
		path: Type.String({
			description: "Path of the file to read: relative to the working folder, or absolute (~ allowed).",
		}),
		offset: Type.Optional(
			Type.Integer({
				minimum: 1,
				description: "Line number to start at, 1-indexed. Default 1. Use the offset a continuation notice gives.",
			}),
		),
		limit: Type.Optional(
			Type.Integer({
				minimum: 1,
				description: `Most lines to return. One read returns at most ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)}.`,
			}),
		),
	},
	{ additionalProperties: false },
);

export type ReadToolInput = Static<typeof readSchema>;

/** `structuredContent` of a successful read: a page of text, an image, or a binary file's size. */
export const readOutputSchema = Type.Object({
	kind: Type.Union([Type.Literal("text"), Type.Literal("image"), Type.Literal("binary")]),
	path: Type.String({ description: "Absolute path of the file read." }),
	startLine: Type.Optional(Type.Integer({ description: "Text: first line returned (1-indexed)." })),
	endLine: Type.Optional(Type.Integer({ description: "Text: last line returned (startLine - 1 when none)." })),
	totalLines: Type.Optional(Type.Integer({ description: "Text: lines in the file, when counted." })),
	truncated: Type.Optional(Type.Boolean({ description: "Text: more lines follow the page." })),
	nextOffset: Type.Optional(Type.Integer({ description: "Text: the offset that continues the read." })),
	content: Type.Optional(Type.String({ description: "Text: the lines exactly as in the file." })),
	mimeType: Type.Optional(Type.String({ description: "Image: MIME type of the image returned." })),
	width: Type.Optional(Type.Integer({ description: "Image: width returned, in pixels." })),
	height: Type.Optional(Type.Integer({ description: "Image: height returned, in pixels." })),
	originalWidth: Type.Optional(Type.Integer({ description: "Image: width of the file, in pixels." })),
	originalHeight: Type.Optional(Type.Integer({ description: "Image: height of the file, in pixels." })),
	attached: Type.Optional(Type.Boolean({ description: "Image: false when the model cannot take images." })),
	size: Type.Optional(Type.Integer({ description: "Image or binary: file size in bytes." })),
});

export type ReadStructuredContent = Static<typeof readOutputSchema>;

/** How a page of text was cut short, and where to go on. */
export interface ReadTruncation {
	truncatedBy: ReadTruncatedBy;
	/** The `offset` that continues the read. */
	nextOffset: number;
	/** Lines after the page, when the file's lines were counted. */
	remainingLines?: number;
	maxLines: number;
	maxBytes: number;
}

/** What the UI gets in `details`. */
export interface ReadToolDetails {
	/** Absolute path of the file. */
	path: string;
	kind: "text" | "image" | "binary";
	/** Size of the file in bytes. */
	size: number;
	/** Text: first and last line returned, and the file's line count when known. */
	startLine?: number;
	endLine?: number;
	totalLines?: number;
	/** Text: set when the page did not reach the end of the file. */
	truncation?: ReadTruncation;
	/** Image: what was sent and what `processImage` did. */
	image?: {
		mimeType: string;
		width: number;
		height: number;
		originalWidth: number;
		originalHeight: number;
		attached: boolean;
		hints: string[];
	};
}

/** What `stat` reports about a path. */
export interface ReadFileStat {
	kind: "file" | "directory" | "other";
	/** Size in bytes. */
	size: number;
}

/** An open file, read at explicit positions. */
export interface ReadFileHandle {
	/** Reads up to `length` bytes at file `position` into `buffer` at `offset`; resolves to the count (0 at the end). */
	read(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
	/** Releases the file. Called once, after the last read. */
	close(): Promise<void>;
}

/** All I/O of the read tool. Replace it to read from elsewhere (a container, a remote machine). */
export interface ReadOperations {
	/** Describes `path` (following links), or resolves to undefined when nothing exists there. May throw for other failures. */
	stat(path: string): Promise<ReadFileStat | undefined>;
	/** Opens a file for reading. May throw (e.g. permission denied). */
	open(path: string): Promise<ReadFileHandle>;
}

/** Reads the local file system. */
export const localReadOperations: ReadOperations = {
	async stat(path) {
		try {
			const stats = await stat(path);
			return { kind: stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other", size: stats.size };
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOENT" || code === "ENOTDIR") return undefined;
			throw error;
		}
	},
	async open(path) {
		// Plain callbacks: for many small chunk reads they cost far less than FileHandle's promises.
		const descriptor = await new Promise<number>((resolve, reject) =>
			open(path, "r", (error, fd) => (error ? reject(error) : resolve(fd))),
		);
		return {
			read: (buffer, offset, length, position) =>
				new Promise<number>((resolve, reject) =>
					read(descriptor, buffer, offset, length, position, (error, bytesRead) =>
						error ? reject(error) : resolve(bytesRead),
					),
				),
			close: () =>
				new Promise<void>((resolve, reject) => close(descriptor, (error) => (error ? reject(error) : resolve()))),
		};
	},
};

/** A value, or a function called at each read for the current value. */
export type ReadOptionSource<T> = T | (() => T | undefined);

export interface ReadToolOptions {
	/** Where the I/O goes. Default `localReadOperations`. */
	operations?: ReadOperations;
	/**
	 * The model the images are for (or a getter for the current one): decides whether images are
	 * attached (`model.input` includes "image") and their limits (`inputLimits.images.resize`). Default:
	 * the `model` of the call's context; with neither, images are attached with the default limits.
	 */
	model?: ReadOptionSource<Model>;
	/**
	 * Image limits that take precedence over the model's (or a getter for them). Default: the model's
	 * `inputLimits.images.resize`, else 2000 × 2000 pixels and 4.5 MB of base64.
	 */
	imageResize?: ReadOptionSource<ImageResizeLimits>;
	/**
	 * Resize and re-encode images to fit the limits. When false, images are sent as they are, except that
	 * formats providers cannot take (BMP, TIFF, …) are still converted to PNG. Default true.
	 */
	autoResizeImages?: boolean;
	/** Most lines one read returns. Default `DEFAULT_MAX_LINES` (2000). */
	maxLines?: number;
	/** Most bytes of text one read returns. Default `DEFAULT_MAX_BYTES` (50 KiB). */
	maxBytes?: number;
}

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
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "EACCES" || code === "EPERM") return new Error(`Cannot read ${path}: permission denied.`);
	return new Error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Creates the `read` tool: pages of text files, images for the model, binary files reported by size. */
export function createReadToolDefinition(
	cwd: string,
	options: ReadToolOptions = {},
): ToolDefinition<typeof readSchema, ReadToolDetails> {
	const operations = options.operations ?? localReadOperations;
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	return defineTool<typeof readSchema, ReadToolDetails>({
		name: "read",
		label: "Read",
		description:
			`Read a file. Text comes back exactly as in the file, at most ${maxLines} lines or ${formatSize(maxBytes)} ` +
			"per call; a notice at the end says how to continue (offset is the 1-indexed line to start at, limit the " +
			"number of lines). Images (JPEG, PNG, GIF, WebP, BMP) are returned as images, scaled to the model's limits. " +
			"Binary files are reported by size, not shown.",
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
			const path = resolveToolPath(cwd, params.path);

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
					return await readImageFile({
						path,
						handle,
						size: stats.size,
						model,
						limits: currentValue(options.imageResize) ?? model?.inputLimits?.images?.resize,
						autoResize: options.autoResizeImages ?? true,
						signal,
					});
				}
				if (looksBinary(headBytes)) return binaryResult(path, stats.size);
				return await readTextFile({ path, handle, size: stats.size, offset, limit, maxLines, maxBytes, signal });
			} finally {
				await handle.close();
			}
		},
		renderCall: renderReadCall,
		renderResult: renderReadResult,
	});
}

function binaryResult(path: string, size: number): AgentToolResult<ReadToolDetails> {
	const text = `Binary file (${formatSize(size)}) — not shown: ${path}. Inspect it with bash (e.g. \`file\` or \`xxd | head\`).`;
	return {
		content: [{ type: "text", text }],
		structuredContent: { kind: "binary", path, size },
		details: { path, kind: "binary", size },
	};
}
