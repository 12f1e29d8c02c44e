import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectImageFormat, isProviderImageFormat } from "../../src/image/detect.js";
import { encodeBmp, gradientPng } from "./fixtures.js";

describe("detectImageFormat", () => {
	it("recognises JPEG, PNG, GIF, WebP, TIFF and AVIF written by a real encoder", async () => {
		const source = sharp(await gradientPng(16, 16));
		expect(detectImageFormat(await source.clone().jpeg().toBuffer())).toBe("jpeg");
		expect(detectImageFormat(await source.clone().png().toBuffer())).toBe("png");
		expect(detectImageFormat(await source.clone().gif().toBuffer())).toBe("gif");
		expect(detectImageFormat(await source.clone().webp().toBuffer())).toBe("webp");
		expect(detectImageFormat(await source.clone().tiff().toBuffer())).toBe("tiff");
		expect(detectImageFormat(await source.clone().avif().toBuffer())).toBe("avif");
	});

	it("recognises BMP by its header, not by the two letters alone", () => {
		const bmp = encodeBmp(4, 4, () => [1, 2, 3, 255], { bitsPerPixel: 24 });
		expect(detectImageFormat(bmp)).toBe("bmp");
		expect(detectImageFormat(Buffer.from("BMW owners club meeting notes\n"))).toBeUndefined();
	});

	it("returns undefined for text, empty and truncated input", () => {
		expect(detectImageFormat(Buffer.from("hello world, this is text"))).toBeUndefined();
		expect(detectImageFormat(Buffer.alloc(0))).toBeUndefined();
		expect(detectImageFormat(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined();
		expect(detectImageFormat(Buffer.from("GIF8"))).toBeUndefined();
	});

	it("marks only JPEG, PNG, GIF and WebP as formats providers take", () => {
		expect(["jpeg", "png", "gif", "webp"].every((format) => isProviderImageFormat(format as "png"))).toBe(true);
		expect(isProviderImageFormat("bmp")).toBe(false);
		expect(isProviderImageFormat("tiff")).toBe(false);
	});
});
