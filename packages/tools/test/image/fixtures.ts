// Test images built in memory: PNG/JPEG through sharp, BMP by a tiny encoder (sharp cannot write BMP).
import sharp from "sharp";

/** A smooth gradient image (compresses well), RGB or RGBA. */
export async function gradientPng(width: number, height: number, options: { alpha?: boolean } = {}): Promise<Buffer> {
	const channels = options.alpha ? 4 : 3;
	const data = Buffer.alloc(width * height * channels);
	for (let y = 0; y < height; y++)
		for (let x = 0; x < width; x++) {
			const at = (y * width + x) * channels;
			data[at] = (x * 255) / Math.max(1, width - 1);
			data[at + 1] = (y * 255) / Math.max(1, height - 1);
			data[at + 2] = 128;
			if (channels === 4) data[at + 3] = x < width / 2 ? 255 : 64;
		}
	return sharp(data, { raw: { width, height, channels } }).png().toBuffer();
}

/** Random pixels: barely compressible, so encoders produce big files. */
export async function noisePng(width: number, height: number): Promise<Buffer> {
	const data = Buffer.alloc(width * height * 3);
	let seed = 12345;
	for (let index = 0; index < data.length; index++) {
		seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
		data[index] = seed >>> 24;
	}
	return sharp(data, { raw: { width, height, channels: 3 } })
		.png({ compressionLevel: 1 })
		.toBuffer();
}

export type Rgba = [number, number, number, number];

export interface BmpOptions {
	bitsPerPixel: 1 | 8 | 24 | 32;
	topDown?: boolean;
}

/**
 * Encodes `pixel(x, y)` as a BMP: 24-bit BGR, 32-bit BGRA with bit fields (v4 header), or 1/8-bit with
 * a palette built from the colours used (at most 2 or 256).
 */
export function encodeBmp(
	width: number,
	height: number,
	pixel: (x: number, y: number) => Rgba,
	options: BmpOptions,
): Buffer {
	const { bitsPerPixel } = options;
	const headerSize = bitsPerPixel === 32 ? 108 : 40;
	const palette: Rgba[] = [];
	const paletteIndex = new Map<string, number>();
	if (bitsPerPixel <= 8)
		for (let y = 0; y < height; y++)
			for (let x = 0; x < width; x++) {
				const colour = pixel(x, y);
				const key = colour.join(",");
				if (!paletteIndex.has(key)) {
					paletteIndex.set(key, palette.length);
					palette.push(colour);
				}
			}
	const paletteBytes = bitsPerPixel <= 8 ? (1 << bitsPerPixel) * 4 : 0;
	const stride = ((bitsPerPixel * width + 31) >>> 5) << 2;
	const pixelOffset = 14 + headerSize + paletteBytes;
	const file = Buffer.alloc(pixelOffset + stride * height);
	file.write("BM", 0, "latin1");
	file.writeUInt32LE(file.length, 2);
	file.writeUInt32LE(pixelOffset, 10);
	file.writeUInt32LE(headerSize, 14);
	file.writeInt32LE(width, 18);
	file.writeInt32LE(options.topDown ? -height : height, 22);
	file.writeUInt16LE(1, 26);
	file.writeUInt16LE(bitsPerPixel, 28);
	file.writeUInt32LE(bitsPerPixel === 32 ? 3 : 0, 30);
	file.writeUInt32LE(stride * height, 34);
	if (bitsPerPixel === 32) {
		file.writeUInt32LE(0x00ff0000, 54);
		file.writeUInt32LE(0x0000ff00, 58);
		file.writeUInt32LE(0x000000ff, 62);
		file.writeUInt32LE(0xff000000, 66);
	}
	palette.forEach(([red, green, blue], index) => {
		const at = 14 + headerSize + index * 4;
		file[at] = blue;
		file[at + 1] = green;
		file[at + 2] = red;
	});
	for (let row = 0; row < height; row++) {
		const y = options.topDown ? row : height - 1 - row;
		const start = pixelOffset + row * stride;
		for (let x = 0; x < width; x++) {
			const [red, green, blue, alpha] = pixel(x, y);
			if (bitsPerPixel === 24) {
				file[start + x * 3] = blue;
				file[start + x * 3 + 1] = green;
				file[start + x * 3 + 2] = red;
			} else if (bitsPerPixel === 32) {
				file.writeUInt32LE(((alpha << 24) | (red << 16) | (green << 8) | blue) >>> 0, start + x * 4);
			} else {
				const index = paletteIndex.get([red, green, blue, alpha].join(",")) ?? 0;
				const bit = x * bitsPerPixel;
				const at = start + (bit >>> 3);
				file[at] = file.readUInt8(at) | (index << (8 - bitsPerPixel - (bit & 7)));
			}
		}
	}
	return file;
}

/** The RGBA colour at (x, y) of any image sharp (or, for BMP, the caller) can decode. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<Rgba> {
	const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	const at = (y * info.width + x) * 4;
	return [data.readUInt8(at), data.readUInt8(at + 1), data.readUInt8(at + 2), data.readUInt8(at + 3)];
}
