import { errorText, type ImageContent, withoutUndefined } from "@gantry/ai";
import type { Sharp } from "sharp";
import { formatSize } from "../truncate.js";
import { decodeBmp } from "./bmp.js";
import { detectImageFormat, IMAGE_MIME_TYPES, type ImageFormat, isProviderImageFormat } from "./detect.js";
import { type ImageResizeLimits, resolveImageLimits } from "./limits.js";
import { loadSharp } from "./load-sharp.js";

/** What `processImage` made of an image. */
export interface ProcessedImage {
	/** The image to send, or undefined when it could not be decoded or made small enough (see `hints`). */
	image?: ImageContent;
	/** Notes for the model about what was done (resize, conversion, re-encoding) or why nothing came out. */
	hints: string[];
	/** Size of the returned image in pixels. */
	width?: number;
	height?: number;
	/** Size of the input image in pixels (after EXIF orientation). */
	originalWidth?: number;
	originalHeight?: number;
	/** The input's format, detected from its content. */
	format?: ImageFormat;
}

/** Options of `processImageBytes`. */
export interface ProcessImageBytesOptions {
	/**
	 * When false, the image is never resized or re-encoded to fit the limits; only formats that providers
	 * cannot take (BMP, TIFF, …) are converted to PNG. Default true.
	 */
	resize?: boolean;
	/** The base64 text of the bytes, when the caller has it: an image passed through is not encoded again. */
	base64?: string;
}

interface DecodableSource {
	pipeline: Sharp;
	width: number;
	height: number;
	hasAlpha: boolean;
	/** The EXIF orientation is not upright, so the pixels must be rotated before a model sees them. */
	needsRotation: boolean;
	formatName: string;
	/** Frames of an animated image (only the first is kept when it is re-encoded). */
	frames: number;
}

interface Pixels {
	data: Buffer;
	width: number;
	height: number;
	channels: 1 | 2 | 3 | 4;
}

type Attempt = { format: "png" } | { format: "jpeg"; quality: number };

const JPEG_QUALITIES = [85, 70, 55, 40];
const SHRINK_FACTOR = 0.75;
const MAX_SHRINK_STEPS = 12;

function base64Length(byteLength: number): number {
	return Math.ceil(byteLength / 3) * 4;
}

function describeError(error: unknown): string {
	const text = errorText(error);
	return text.replace(/^Input buffer (contains|has) /, "").replace(/\s+$/, "");
}

async function openSource(bytes: Buffer, format: ImageFormat | undefined): Promise<DecodableSource> {
	if (format === "bmp") {
		// libvips has no BMP loader: decode here and hand sharp the raw pixels.
		const bitmap = decodeBmp(bytes);
		const { width, height, channels } = bitmap;
		const sharp = await loadSharp();
		const pipeline = sharp(bitmap.data, { raw: { width, height, channels } });
		return { pipeline, width, height, hasAlpha: channels === 4, needsRotation: false, formatName: "BMP", frames: 1 };
	}
	// Tolerate slightly damaged files (a truncated scan still shows most of a picture).
	const sharp = await loadSharp();
	const pipeline = sharp(bytes, { failOn: "error" });
	const metadata = await pipeline.metadata();
	// Rotating costs time even when there is nothing to do, so only images with an EXIF turn get it.
	const needsRotation = (metadata.orientation ?? 1) > 1;
	if (needsRotation) pipeline.autoOrient();
	return {
		pipeline,
		width: metadata.autoOrient?.width ?? metadata.width,
		height: metadata.autoOrient?.height ?? metadata.height,
		hasAlpha: metadata.hasAlpha,
		needsRotation,
		formatName: (format ?? metadata.format).toUpperCase(),
		frames: metadata.pages ?? 1,
	};
}

async function encode(pixels: Pixels, width: number, height: number, attempt: Attempt): Promise<Buffer> {
	const sharp = await loadSharp();
	let pipeline = sharp(pixels.data, {
		raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
	});
	if (width !== pixels.width || height !== pixels.height) pipeline = pipeline.resize(width, height, { fit: "fill" });
	if (attempt.format === "png") return pipeline.png({ compressionLevel: 6 }).toBuffer();
	return pipeline.flatten({ background: "#ffffff" }).jpeg({ quality: attempt.quality }).toBuffer();
}

/**
 * Makes an image fit for a model, from its bytes: detects the format by content, converts formats
 * providers cannot take (BMP, TIFF, AVIF, …) to PNG, scales it down to fit `maxWidth × maxHeight`
 * (defaults 2000 × 2000) and the base64 budget `maxBytes` (default 4.5 MB), re-encoding as JPEG with
 * falling quality and then smaller dimensions when needed. The source is decoded at most once.
 * Never throws for bad input: an undecodable image gives `image: undefined` and a hint saying why.
 */
export async function processImageBytes(
	bytes: Buffer,
	resize?: ImageResizeLimits,
	options: ProcessImageBytesOptions = {},
): Promise<ProcessedImage> {
	const limits = resolveImageLimits(resize);
	const autoResize = options.resize !== false;
	if (bytes.length === 0) return { hints: ["[Image could not be decoded: the data is empty]"] };
	const format = detectImageFormat(bytes);
	let source: DecodableSource;
	try {
		source = await openSource(bytes, format);
	} catch (error) {
		return { ...withoutUndefined({ format }), hints: [`[Image could not be decoded: ${describeError(error)}]`] };
	}
	const { width, height } = source;
	const original = withoutUndefined({ format, originalWidth: width, originalHeight: height });
	const accepted = format !== undefined && isProviderImageFormat(format);
	const scale = autoResize ? Math.min(1, limits.maxWidth / width, limits.maxHeight / height) : 1;
	const fitsBudget = base64Length(bytes.length) <= limits.maxBytes;
	if (accepted && (!autoResize || (scale === 1 && fitsBudget && !source.needsRotation))) {
		const data = options.base64 ?? bytes.toString("base64");
		return {
			...original,
			image: { type: "image", data, mimeType: IMAGE_MIME_TYPES[format] },
			hints: [],
			width,
			height,
		};
	}

	const targetWidth = Math.max(1, Math.round(width * scale));
	const targetHeight = Math.max(1, Math.round(height * scale));
	let pixels: Pixels;
	try {
		let pipeline = source.pipeline;
		if (scale < 1) pipeline = pipeline.resize(targetWidth, targetHeight, { fit: "fill" });
		const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
		pixels = { data, width: info.width, height: info.height, channels: info.channels };
	} catch (error) {
		return { ...original, hints: [`[Image could not be decoded: ${describeError(error)}]`] };
	}

	// Lossless PNG for transparency and for plain conversions; JPEG for everything scaled or re-encoded.
	const preferPng = source.hasAlpha || (scale === 1 && !accepted);
	const firstAttempts: Attempt[] = preferPng ? [{ format: "png" }] : [];
	const jpegAttempts: Attempt[] = JPEG_QUALITIES.map((quality) => ({ format: "jpeg", quality }));
	let stepWidth = pixels.width;
	let stepHeight = pixels.height;
	let attemptCount = 0;
	for (let step = 0; step <= MAX_SHRINK_STEPS; step++) {
		const attempts = step === 0 ? [...firstAttempts, ...jpegAttempts] : jpegAttempts;
		for (const attempt of attempts) {
			attemptCount++;
			const encoded = await encode(pixels, stepWidth, stepHeight, attempt);
			if (base64Length(encoded.length) > limits.maxBytes) continue;
			const outputFormat = attempt.format;
			const hints: string[] = [];
			if (stepWidth !== width || stepHeight !== height) {
				const finalScale = (stepWidth / width).toFixed(2);
				hints.push(
					`[Image resized from ${width}x${height} to ${stepWidth}x${stepHeight} (scale ${finalScale}) to fit the model's limits]`,
				);
			}
			if (!accepted) hints.push(`[Image converted from ${source.formatName} to ${outputFormat.toUpperCase()}]`);
			if (source.frames > 1) hints.push(`[Animated image: only the first of its ${source.frames} frames is shown]`);
			const overBudget = attemptCount > 1 || (accepted && scale === 1 && !fitsBudget);
			if (overBudget && attempt.format === "jpeg")
				hints.push(
					`[Image re-encoded as JPEG (quality ${attempt.quality}) to stay under ${formatSize(limits.maxBytes)} of base64]`,
				);
			const mimeType = outputFormat === "png" ? "image/png" : "image/jpeg";
			const image: ImageContent = { type: "image", data: encoded.toString("base64"), mimeType };
			return { ...original, image, hints, width: stepWidth, height: stepHeight };
		}
		if (stepWidth === 1 && stepHeight === 1) break;
		stepWidth = Math.max(1, Math.round(stepWidth * SHRINK_FACTOR));
		stepHeight = Math.max(1, Math.round(stepHeight * SHRINK_FACTOR));
	}
	return {
		...original,
		hints: [`[Image could not be made smaller than ${formatSize(limits.maxBytes)} of base64, so it is not shown]`],
	};
}

/**
 * Makes an image fit for a model (see `processImageBytes`): detects the format by content, converts
 * what providers cannot take to PNG, resizes to fit `resize` (defaults 2000 × 2000 and 4.5 MB of
 * base64) and adds hints saying what was done. Never throws for bad input.
 *
 * @example
 * const { image, hints } = await processImage(screenshot, model.inputLimits?.images?.resize);
 */
export async function processImage(image: ImageContent, resize?: ImageResizeLimits): Promise<ProcessedImage> {
	return processImageBytes(Buffer.from(image.data, "base64"), resize, { base64: image.data });
}
