import type { AgentToolResult } from "@gantry/agent";
import type { Model } from "@gantry/ai";
import { throwIfAborted } from "../abort.js";
import type { ImageResizeLimits } from "../image/limits.js";
import { probeImage } from "../image/probe-image.js";
import { processImageBytes } from "../image/process-image.js";
import { formatSize } from "../truncate.js";
import type { ReadFileHandle, ReadToolDetails } from "./types.js";

/** Image files bigger than this are not loaded. */
export const MAX_IMAGE_FILE_BYTES = 100 * 1024 * 1024;

export interface ImageReadRequest {
	path: string;
	handle: ReadFileHandle;
	size: number;
	model?: Model;
	limits?: ImageResizeLimits;
	autoResize: boolean;
	signal?: AbortSignal;
}

async function readWhole(handle: ReadFileHandle, size: number, signal: AbortSignal | undefined): Promise<Buffer> {
	const buffer = Buffer.allocUnsafe(size);
	let filled = 0;
	while (filled < size) {
		throwIfAborted(signal);
		const bytesRead = await handle.read(buffer, filled, size - filled, filled);
		if (bytesRead === 0) break;
		filled += bytesRead;
	}
	return buffer.subarray(0, filled);
}

/** Reads an image file (detected by content) and returns it fitted to the model, or a note when it cannot see images. */
export async function readImageFile(request: ImageReadRequest): Promise<AgentToolResult<ReadToolDetails>> {
	const { path, size, model, signal } = request;
	if (size > MAX_IMAGE_FILE_BYTES)
		throw new Error(
			`${path} is an image of ${formatSize(size)}, over the ${formatSize(MAX_IMAGE_FILE_BYTES)} that read loads. ` +
				"Make a smaller copy with an image tool first.",
		);
	const bytes = await readWhole(request.handle, size, signal);

	if (model !== undefined && !model.input.includes("image")) {
		const info = await probeImage(bytes);
		throwIfAborted(signal);
		if (info === undefined) throw new Error(`Could not read image ${path}: its header is damaged.`);
		const { mimeType, width, height } = info;
		const text =
			`[Image file ${path} (${mimeType}, ${width}x${height}, ${formatSize(size)}). ` +
			`The current model (${model.id}) does not take images, so it is not shown.]`;
		const image = { mimeType, width, height, originalWidth: width, originalHeight: height, attached: false, hints: [] };
		return {
			content: [{ type: "text", text }],
			structuredContent: { kind: "image", path, mimeType, width, height, attached: false, size },
			details: { path, kind: "image", size, image },
		};
	}

	const processed = await processImageBytes(bytes, request.limits, { resize: request.autoResize });
	throwIfAborted(signal);
	if (processed.image === undefined) throw new Error(`Could not read image ${path}: ${processed.hints.join(" ")}`);
	const { mimeType } = processed.image;
	const width = processed.width ?? 0;
	const height = processed.height ?? 0;
	const originalWidth = processed.originalWidth ?? width;
	const originalHeight = processed.originalHeight ?? height;
	const note = [`[Image file ${path} (${mimeType}, ${width}x${height})]`, ...processed.hints].join("\n");
	return {
		content: [{ type: "text", text: note }, processed.image],
		structuredContent: {
			kind: "image",
			path,
			mimeType,
			width,
			height,
			originalWidth,
			originalHeight,
			attached: true,
			size,
		},
		details: {
			path,
			kind: "image",
			size,
			image: { mimeType, width, height, originalWidth, originalHeight, attached: true, hints: processed.hints },
		},
	};
}
