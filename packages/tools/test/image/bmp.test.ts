import { describe, expect, it } from "vitest";
import { BmpDecodeError, decodeBmp, readBmpSize } from "../../src/image/bmp.js";
import { encodeBmp, type Rgba } from "./fixtures.js";

const quadrants = (x: number, y: number): Rgba => {
	if (y < 3) return x < 5 ? [255, 0, 0, 255] : [0, 255, 0, 255];
	return x < 5 ? [0, 0, 255, 255] : [255, 255, 255, 255];
};

function rgbAt(bitmap: ReturnType<typeof decodeBmp>, x: number, y: number): number[] {
	const at = (y * bitmap.width + x) * bitmap.channels;
	return [...bitmap.data.subarray(at, at + bitmap.channels)];
}

describe("decodeBmp", () => {
	for (const bitsPerPixel of [8, 24] as const)
		for (const topDown of [false, true])
			it(`decodes ${bitsPerPixel}-bit ${topDown ? "top-down" : "bottom-up"} rows in the right place`, () => {
				const bitmap = decodeBmp(encodeBmp(9, 6, quadrants, { bitsPerPixel, topDown }));
				expect(bitmap).toMatchObject({ width: 9, height: 6, channels: 3 });
				expect(rgbAt(bitmap, 0, 0)).toEqual([255, 0, 0]);
				expect(rgbAt(bitmap, 8, 0)).toEqual([0, 255, 0]);
				expect(rgbAt(bitmap, 0, 5)).toEqual([0, 0, 255]);
				expect(rgbAt(bitmap, 8, 5)).toEqual([255, 255, 255]);
			});

	it("decodes 1-bit palettes with rows padded to 4 bytes", () => {
		const bitmap = decodeBmp(
			encodeBmp(35, 2, (x, y) => ((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255]), { bitsPerPixel: 1 }),
		);
		expect(rgbAt(bitmap, 0, 0)).toEqual([0, 0, 0]);
		expect(rgbAt(bitmap, 1, 0)).toEqual([255, 255, 255]);
		expect(rgbAt(bitmap, 34, 1)).toEqual([255, 255, 255]);
	});

	it("keeps the alpha of 32-bit bit-field images", () => {
		const bitmap = decodeBmp(encodeBmp(4, 2, (x) => [10, 20, 30, x < 2 ? 255 : 0], { bitsPerPixel: 32 }));
		expect(bitmap.channels).toBe(4);
		expect(rgbAt(bitmap, 0, 0)).toEqual([10, 20, 30, 255]);
		expect(rgbAt(bitmap, 3, 1)).toEqual([10, 20, 30, 0]);
	});

	it("treats a 32-bit image whose alpha byte is never set as opaque", () => {
		const bitmap = decodeBmp(encodeBmp(4, 2, () => [10, 20, 30, 0], { bitsPerPixel: 32 }));
		expect(bitmap.channels).toBe(3);
		expect(rgbAt(bitmap, 2, 1)).toEqual([10, 20, 30]);
	});

	it("decodes RLE8 runs, absolute runs and end-of-line markers", () => {
		// 4x2 image, palette: 0 = black, 1 = red, 2 = green. Bottom row first.
		const header = encodeBmp(4, 2, (x) => (x === 0 ? [0, 0, 0, 255] : x === 1 ? [255, 0, 0, 255] : [0, 255, 0, 255]), {
			bitsPerPixel: 8,
		});
		const pixelOffset = header.readUInt32LE(10);
		const rle = Buffer.from([4, 1, 0, 0, 0, 4, 0, 2, 1, 2, 0, 0, 0, 1]);
		const file = Buffer.concat([header.subarray(0, pixelOffset), rle]);
		file.writeUInt32LE(1, 30);
		const bitmap = decodeBmp(file);
		expect(rgbAt(bitmap, 0, 1)).toEqual([255, 0, 0]);
		expect(rgbAt(bitmap, 3, 1)).toEqual([255, 0, 0]);
		expect(rgbAt(bitmap, 0, 0)).toEqual([0, 0, 0]);
		expect(rgbAt(bitmap, 1, 0)).toEqual([0, 255, 0]);
		expect(rgbAt(bitmap, 2, 0)).toEqual([255, 0, 0]);
	});

	it("reads the size from the header alone", () => {
		expect(readBmpSize(encodeBmp(7, 3, quadrants, { bitsPerPixel: 24 }))).toEqual({ width: 7, height: 3 });
	});

	it("rejects truncated and malformed files with a BmpDecodeError", () => {
		const bmp = encodeBmp(20, 20, quadrants, { bitsPerPixel: 24 });
		expect(() => decodeBmp(bmp.subarray(0, bmp.length - 100))).toThrow(/truncated/);
		expect(() => decodeBmp(Buffer.from("BM not really"))).toThrow(BmpDecodeError);
		const zeroWidth = Buffer.from(bmp);
		zeroWidth.writeInt32LE(0, 18);
		expect(() => decodeBmp(zeroWidth)).toThrow(/invalid BMP size/);
	});
});
