// A BMP decoder: libvips (inside sharp) has no BMP loader, so BMP files are decoded here into raw
// pixels that sharp then resizes and encodes. Covers what real files use: 1/2/4/8-bit palettes,
// RLE4/RLE8, 16/24/32-bit, bit fields with or without alpha, bottom-up and top-down rows.

import { GantryError } from "@gantry/ai";

/** Raw pixels, row-major from the top-left, RGB or RGBA. */
export interface DecodedBitmap {
	width: number;
	height: number;
	channels: 3 | 4;
	data: Buffer;
}

/** The size of a BMP image, read from its header only. */
export interface BitmapSize {
	width: number;
	height: number;
}

/** The BMP is malformed or uses a variant this decoder does not read (embedded JPEG/PNG). */
export class BmpDecodeError extends GantryError<"invalid_bmp"> {
	override name = "BmpDecodeError";
	constructor(message: string) {
		super("invalid_bmp", message);
	}
}

const MAX_PIXELS = 0x3fff * 0x3fff;
const COMPRESSION_RGB = 0;
const COMPRESSION_RLE8 = 1;
const COMPRESSION_RLE4 = 2;
const COMPRESSION_BITFIELDS = 3;
const COMPRESSION_ALPHA_BITFIELDS = 6;

interface BmpHeader extends BitmapSize {
	topDown: boolean;
	bitsPerPixel: number;
	compression: number;
	pixelOffset: number;
	palette: Uint8Array;
	masks: { red: number; green: number; blue: number; alpha: number };
}

/**
 * The byte at `at`, 0 past the end: what a typed-array store or a bit operation makes of the missing
 * value anyway. The reads below stay in bounds (the header checks and the palette size see to it).
 */
function byteAt(bytes: Uint8Array, at: number): number {
	return bytes[at] ?? 0;
}

function readHeader(bytes: Buffer): BmpHeader {
	if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new BmpDecodeError("not a BMP file");
	const pixelOffset = bytes.readUInt32LE(10);
	const headerSize = bytes.readUInt32LE(14);
	let width: number;
	let height: number;
	let bitsPerPixel: number;
	let compression = COMPRESSION_RGB;
	let colorsUsed = 0;
	let paletteEntrySize = 4;
	if (headerSize === 12) {
		width = bytes.readUInt16LE(18);
		height = bytes.readInt16LE(20);
		bitsPerPixel = bytes.readUInt16LE(24);
		paletteEntrySize = 3;
	} else {
		if (bytes.length < 14 + 40) throw new BmpDecodeError("BMP header is truncated");
		width = bytes.readInt32LE(18);
		height = bytes.readInt32LE(22);
		bitsPerPixel = bytes.readUInt16LE(28);
		compression = bytes.readUInt32LE(30);
		colorsUsed = bytes.readUInt32LE(46);
	}
	const topDown = height < 0;
	height = Math.abs(height);
	if (width <= 0 || height <= 0) throw new BmpDecodeError(`invalid BMP size ${width}x${height}`);
	if (width * height > MAX_PIXELS) throw new BmpDecodeError(`BMP is too large (${width}x${height} pixels)`);
	if (![1, 2, 4, 8, 16, 24, 32].includes(bitsPerPixel))
		throw new BmpDecodeError(`unsupported BMP bit depth ${bitsPerPixel}`);
	if (compression === 4 || compression === 5)
		throw new BmpDecodeError("BMP files with an embedded JPEG or PNG are not supported");
	if (compression === COMPRESSION_RLE8 && bitsPerPixel !== 8) throw new BmpDecodeError("RLE8 BMP must be 8-bit");
	if (compression === COMPRESSION_RLE4 && bitsPerPixel !== 4) throw new BmpDecodeError("RLE4 BMP must be 4-bit");
	if (
		![COMPRESSION_RGB, COMPRESSION_RLE8, COMPRESSION_RLE4, COMPRESSION_BITFIELDS, COMPRESSION_ALPHA_BITFIELDS].includes(
			compression,
		)
	)
		throw new BmpDecodeError(`unsupported BMP compression ${compression}`);

	const hasBitFields = compression === COMPRESSION_BITFIELDS || compression === COMPRESSION_ALPHA_BITFIELDS;
	let masks =
		bitsPerPixel === 16
			? { red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0 }
			: { red: 0xff0000, green: 0xff00, blue: 0xff, alpha: 0 };
	// With a 40-byte header the masks follow it; longer headers contain them. Either way they start at 54.
	let extraMaskBytes = 0;
	if (hasBitFields) {
		if (bytes.length < 66) throw new BmpDecodeError("BMP bit fields are truncated");
		const withAlpha = headerSize >= 56 || compression === COMPRESSION_ALPHA_BITFIELDS;
		masks = {
			red: bytes.readUInt32LE(54),
			green: bytes.readUInt32LE(58),
			blue: bytes.readUInt32LE(62),
			alpha: withAlpha && bytes.length >= 70 ? bytes.readUInt32LE(66) : 0,
		};
		if (headerSize === 40) extraMaskBytes = compression === COMPRESSION_ALPHA_BITFIELDS ? 16 : 12;
	} else if (bitsPerPixel === 32) {
		// Plain 32-bit rows are BGRX; the fourth byte is taken as alpha only if some pixel uses it.
		masks.alpha = 0xff000000;
	}

	const paletteStart = 14 + headerSize + extraMaskBytes;
	let palette = new Uint8Array(0);
	if (bitsPerPixel <= 8) {
		const available = Math.floor(Math.max(0, Math.min(pixelOffset, bytes.length) - paletteStart) / paletteEntrySize);
		const count = Math.min(colorsUsed || 1 << bitsPerPixel, 1 << bitsPerPixel, available);
		palette = new Uint8Array(256 * 3);
		for (let index = 0; index < count; index++) {
			const at = paletteStart + index * paletteEntrySize;
			palette[index * 3] = byteAt(bytes, at + 2);
			palette[index * 3 + 1] = byteAt(bytes, at + 1);
			palette[index * 3 + 2] = byteAt(bytes, at);
		}
	}
	return { width, height, topDown, bitsPerPixel, compression, pixelOffset, palette, masks };
}

/** Reads the size of a BMP from its header. Throws `BmpDecodeError` when the header is invalid. */
export function readBmpSize(bytes: Buffer): BitmapSize {
	const { width, height } = readHeader(bytes);
	return { width, height };
}

function maskReader(mask: number): (pixel: number) => number {
	if (mask === 0) return () => 255;
	let shift = 0;
	while (((mask >>> shift) & 1) === 0) shift++;
	let bits = 0;
	while (shift + bits < 32 && ((mask >>> (shift + bits)) & 1) === 1) bits++;
	const max = 2 ** bits - 1;
	if (bits === 8) return (pixel) => (pixel >>> shift) & 0xff;
	if (bits > 8) return (pixel) => (((pixel >>> shift) & max) >>> (bits - 8)) & 0xff;
	return (pixel) => Math.round((((pixel >>> shift) & max) * 255) / max);
}

function decodeRle(bytes: Buffer, header: BmpHeader, rgba: Buffer): void {
	const { width, height, palette, pixelOffset } = header;
	const nibbles = header.compression === COMPRESSION_RLE4;
	const put = (x: number, y: number, index: number) => {
		if (x >= width || y >= height) return;
		const at = ((height - 1 - y) * width + x) * 4;
		rgba[at] = byteAt(palette, index * 3);
		rgba[at + 1] = byteAt(palette, index * 3 + 1);
		rgba[at + 2] = byteAt(palette, index * 3 + 2);
	};
	let x = 0;
	let y = 0;
	let at = pixelOffset;
	while (y < height) {
		const count = bytes[at];
		const value = bytes[at + 1];
		// Each instruction is two bytes; a file that ends inside one has no more to read.
		if (count === undefined || value === undefined) break;
		at += 2;
		if (count > 0) {
			for (let step = 0; step < count; step++, x++)
				put(x, y, nibbles ? (step % 2 === 0 ? value >> 4 : value & 0x0f) : value);
		} else if (value === 0) {
			x = 0;
			y++;
		} else if (value === 1) {
			return;
		} else if (value === 2) {
			x += bytes[at++] ?? 0;
			y += bytes[at++] ?? 0;
		} else {
			const byteCount = nibbles ? Math.ceil(value / 2) : value;
			for (let step = 0; step < value; step++, x++) {
				const byte = bytes[at + (nibbles ? step >> 1 : step)] ?? 0;
				put(x, y, nibbles ? (step % 2 === 0 ? byte >> 4 : byte & 0x0f) : byte);
			}
			at += byteCount + (byteCount % 2);
		}
	}
}

function decodeRows(bytes: Buffer, header: BmpHeader, rgba: Buffer): void {
	const { width, height, bitsPerPixel, palette, pixelOffset, topDown } = header;
	const stride = ((bitsPerPixel * width + 31) >>> 5) << 2;
	if (pixelOffset + stride * height > bytes.length) throw new BmpDecodeError("BMP pixel data is truncated");
	const red = maskReader(header.masks.red);
	const green = maskReader(header.masks.green);
	const blue = maskReader(header.masks.blue);
	const alpha = maskReader(header.masks.alpha);
	for (let row = 0; row < height; row++) {
		const source = pixelOffset + row * stride;
		let target = (topDown ? row : height - 1 - row) * width * 4;
		for (let column = 0; column < width; column++, target += 4) {
			if (bitsPerPixel <= 8) {
				const bit = column * bitsPerPixel;
				const index =
					(byteAt(bytes, source + (bit >>> 3)) >> (8 - bitsPerPixel - (bit & 7))) & ((1 << bitsPerPixel) - 1);
				rgba[target] = byteAt(palette, index * 3);
				rgba[target + 1] = byteAt(palette, index * 3 + 1);
				rgba[target + 2] = byteAt(palette, index * 3 + 2);
				rgba[target + 3] = 255;
			} else if (bitsPerPixel === 24) {
				const at = source + column * 3;
				rgba[target] = byteAt(bytes, at + 2);
				rgba[target + 1] = byteAt(bytes, at + 1);
				rgba[target + 2] = byteAt(bytes, at);
				rgba[target + 3] = 255;
			} else {
				const pixel =
					bitsPerPixel === 16 ? bytes.readUInt16LE(source + column * 2) : bytes.readUInt32LE(source + column * 4);
				rgba[target] = red(pixel);
				rgba[target + 1] = green(pixel);
				rgba[target + 2] = blue(pixel);
				rgba[target + 3] = alpha(pixel);
			}
		}
	}
}

/**
 * Decodes a BMP file into raw RGB (opaque images) or RGBA pixels. Throws `BmpDecodeError` for a
 * malformed or unsupported file.
 */
export function decodeBmp(bytes: Buffer): DecodedBitmap {
	const header = readHeader(bytes);
	const { width, height } = header;
	const rgba = Buffer.alloc(width * height * 4);
	if (header.compression === COMPRESSION_RLE8 || header.compression === COMPRESSION_RLE4) {
		for (let at = 3; at < rgba.length; at += 4) rgba[at] = 255;
		decodeRle(bytes, header, rgba);
	} else {
		decodeRows(bytes, header, rgba);
	}

	let opaque = true;
	let alphaUnused = header.masks.alpha !== 0;
	for (let at = 3; at < rgba.length; at += 4) {
		if (rgba[at] !== 255) opaque = false;
		if (rgba[at] !== 0) alphaUnused = false;
	}
	// A 32-bit file whose fourth byte is zero everywhere is an opaque image that left the byte unset.
	if (opaque || alphaUnused) {
		const rgb = Buffer.allocUnsafe(width * height * 3);
		for (let source = 0, target = 0; source < rgba.length; source += 4, target += 3) {
			rgb[target] = byteAt(rgba, source);
			rgb[target + 1] = byteAt(rgba, source + 1);
			rgb[target + 2] = byteAt(rgba, source + 2);
		}
		return { width, height, channels: 3, data: rgb };
	}
	return { width, height, channels: 4, data: rgba };
}
