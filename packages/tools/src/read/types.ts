import type { Model } from "@gantry/ai";
import { type Static, Type } from "@sinclair/typebox";
import type { ImageResizeLimits } from "../image/limits.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../truncate.js";
import type { ReadTruncatedBy } from "./notice.js";

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
	/** Last modification (ms since the epoch), where known: edit and write refuse a file that changed since it was read. */
	mtimeMs?: number;
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
