import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { processImage, processImageBytes } from "../../src/image/process-image.js";
import { encodeBmp, gradientPng, noisePng, pixelAt } from "./fixtures.js";

const asImage = (bytes: Buffer, mimeType = "image/png") => ({
	type: "image" as const,
	data: bytes.toString("base64"),
	mimeType,
});
const decoded = (data: string) => Buffer.from(data, "base64");

describe("processImage", () => {
	it("resizes a 3000 x 1000 PNG to fit 2000 x 2000 and says by how much", async () => {
		const result = await processImage(asImage(await gradientPng(3000, 1000)));
		expect(result.image?.mimeType).toBe("image/jpeg");
		const metadata = await sharp(decoded(result.image?.data ?? "")).metadata();
		expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", 2000, 667]);
		expect(result.hints).toEqual(["[Image resized from 3000x1000 to 2000x667 (scale 0.67) to fit the model's limits]"]);
		expect(result).toMatchObject({ width: 2000, height: 667, originalWidth: 3000, originalHeight: 1000 });
	});

	it("honours the model's own limits", async () => {
		const result = await processImage(asImage(await gradientPng(400, 300)), { maxWidth: 100, maxHeight: 200 });
		const metadata = await sharp(decoded(result.image?.data ?? "")).metadata();
		expect([metadata.width, metadata.height]).toEqual([100, 75]);
	});

	it("passes an image that already fits through unchanged, with its real MIME type", async () => {
		const png = await gradientPng(300, 200);
		const result = await processImage(asImage(png, "image/jpeg"));
		expect(result.image).toEqual({ type: "image", data: png.toString("base64"), mimeType: "image/png" });
		expect(result.hints).toEqual([]);
	});

	it("keeps transparency when it has to resize an image with alpha", async () => {
		const result = await processImage(asImage(await gradientPng(2400, 100, { alpha: true })));
		expect(result.image?.mimeType).toBe("image/png");
		const output = decoded(result.image?.data ?? "");
		expect((await sharp(output).metadata()).width).toBe(2000);
		expect((await pixelAt(output, 1999, 50))[3]).toBe(64);
	});

	it("converts a BMP to PNG, pixels intact", async () => {
		const bmp = encodeBmp(40, 30, (x) => (x < 20 ? [200, 10, 10, 255] : [10, 10, 200, 255]), { bitsPerPixel: 24 });
		const result = await processImage(asImage(bmp, "image/bmp"));
		expect(result.image?.mimeType).toBe("image/png");
		const output = decoded(result.image?.data ?? "");
		expect((await sharp(output).metadata()).format).toBe("png");
		expect(await pixelAt(output, 0, 0)).toEqual([200, 10, 10, 255]);
		expect(await pixelAt(output, 39, 29)).toEqual([10, 10, 200, 255]);
		expect(result.hints).toEqual(["[Image converted from BMP to PNG]"]);
	});

	it("converts formats providers cannot take, such as TIFF, to PNG", async () => {
		const tiff = await sharp(await gradientPng(50, 40))
			.tiff()
			.toBuffer();
		const result = await processImage(asImage(tiff, "image/tiff"));
		expect(result.image?.mimeType).toBe("image/png");
		expect(result.hints).toEqual(["[Image converted from TIFF to PNG]"]);
	});

	it("keeps the first frame of an animated GIF it has to shrink, and says so", async () => {
		const frames = Buffer.alloc(2400 * 100 * 3 * 3);
		const frameBytes = frames.length / 3;
		for (const [frame, value] of [250, 5, 128].entries())
			frames.fill(value, frame * frameBytes, (frame + 1) * frameBytes);
		const gif = await sharp(frames, { raw: { width: 2400, height: 300, channels: 3, pageHeight: 100 } })
			.gif()
			.toBuffer();
		const result = await processImage(asImage(gif, "image/gif"));
		expect([result.width, result.height]).toEqual([2000, 83]);
		expect(result.hints).toContain("[Animated image: only the first of its 3 frames is shown]");
		expect((await pixelAt(decoded(result.image?.data ?? ""), 10, 10))[0]).toBeGreaterThan(200);
	});

	it("turns a photo upright according to its EXIF orientation", async () => {
		const jpeg = await sharp(await gradientPng(300, 100))
			.jpeg()
			.withMetadata({ orientation: 6 })
			.toBuffer();
		const result = await processImage(asImage(jpeg, "image/jpeg"));
		const metadata = await sharp(decoded(result.image?.data ?? "")).metadata();
		expect([metadata.width, metadata.height, metadata.orientation ?? 1]).toEqual([100, 300, 1]);
	});

	it("re-encodes with falling JPEG quality to fit the byte budget", async () => {
		const maxBytes = 150_000;
		const result = await processImage(asImage(await noisePng(400, 300)), { maxWidth: 2000, maxHeight: 2000, maxBytes });
		expect(result.image?.mimeType).toBe("image/jpeg");
		expect(result.image?.data.length).toBeLessThanOrEqual(maxBytes);
		expect(result.hints.some((hint) => /re-encoded as JPEG \(quality \d+\)/.test(hint))).toBe(true);
	});

	it("shrinks the dimensions when quality alone is not enough", async () => {
		const maxBytes = 20_000;
		const result = await processImage(asImage(await noisePng(400, 300)), { maxWidth: 2000, maxHeight: 2000, maxBytes });
		expect(result.image?.data.length).toBeLessThanOrEqual(maxBytes);
		expect(result.width).toBeLessThan(400);
		expect(result.hints[0]).toMatch(/^\[Image resized from 400x300 to \d+x\d+ \(scale 0\.\d\d\)/);
	});

	it("gives up with a hint when no size fits the budget", async () => {
		const result = await processImage(asImage(await noisePng(50, 50)), { maxWidth: 100, maxHeight: 100, maxBytes: 8 });
		expect(result.image).toBeUndefined();
		expect(result.hints[0]).toMatch(/could not be made smaller/);
	});

	it("reports bytes that are not an image, or a damaged one, without throwing", async () => {
		const garbage = await processImage({
			type: "image",
			data: Buffer.from("not an image").toString("base64"),
			mimeType: "image/png",
		});
		expect(garbage.image).toBeUndefined();
		expect(garbage.hints[0]).toMatch(/^\[Image could not be decoded: /);
		const png = await gradientPng(100, 100);
		const damaged = await processImage(asImage(png.subarray(0, 40)));
		expect(damaged.image).toBeUndefined();
		expect(damaged.hints[0]).toMatch(/^\[Image could not be decoded: /);
		const empty = await processImage({ type: "image", data: "", mimeType: "image/png" });
		expect(empty.hints).toEqual(["[Image could not be decoded: the data is empty]"]);
	});

	it("with resize off, passes big images through but still converts BMP", async () => {
		const png = await gradientPng(2500, 10);
		const big = await processImageBytes(png, undefined, { resize: false });
		expect(big.image?.data).toBe(png.toString("base64"));
		const bmp = encodeBmp(2500, 4, () => [1, 2, 3, 255], { bitsPerPixel: 24 });
		const converted = await processImageBytes(bmp, undefined, { resize: false });
		expect(converted.image?.mimeType).toBe("image/png");
		expect((await sharp(decoded(converted.image?.data ?? "")).metadata()).width).toBe(2500);
	});
});
