import { readBmpSize } from "./bmp.js";
import { detectImageFormat, IMAGE_MIME_TYPES, type ImageFormat } from "./detect.js";
import { loadSharp } from "./load-sharp.js";

/** The format and size of an image, read from its header without decoding the pixels. */
export interface ImageInfo {
	format: ImageFormat;
	mimeType: string;
	width: number;
	height: number;
}

/**
 * Reads the format (by content) and the size (after EXIF orientation) of an image from its header.
 * Returns undefined when the bytes are not a recognised, readable image. Never throws.
 */
export async function probeImage(bytes: Buffer): Promise<ImageInfo | undefined> {
	const format = detectImageFormat(bytes);
	if (format === undefined) return undefined;
	try {
		if (format === "bmp") return { format, mimeType: IMAGE_MIME_TYPES.bmp, ...readBmpSize(bytes) };
		const sharp = await loadSharp();
		const metadata = await sharp(bytes).metadata();
		const width = metadata.autoOrient?.width ?? metadata.width;
		const height = metadata.autoOrient?.height ?? metadata.height;
		return { format, mimeType: IMAGE_MIME_TYPES[format], width, height };
	} catch {
		return undefined;
	}
}
