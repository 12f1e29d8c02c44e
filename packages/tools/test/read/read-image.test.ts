import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@gantry/ai";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReadToolInput, ReadToolOptions } from "../../src/read/types.js";
import { encodeBmp, gradientPng } from "../image/fixtures.js";
import { readIn, text } from "./read-helpers.js";

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-read-image-"));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

const read = (input: Partial<ReadToolInput> & { path: string }, options: ReadToolOptions = {}) =>
	readIn(folder, input, options);

const model = (input: ("text" | "image")[], resize?: { maxWidth: number; maxHeight: number }): Model => ({
	id: "test-model",
	name: "Test model",
	api: "faux",
	provider: "faux",
	input,
	contextWindow: 100_000,
	maxTokens: 1000,
	...(resize ? { inputLimits: { images: { resize } } } : {}),
});

describe("read: images", () => {
	it("resizes a 3000 x 1000 PNG to the default 2000 x 2000 and notes it", async () => {
		await writeFile(join(folder, "wide.png"), await gradientPng(3000, 1000));
		const result = await read({ path: "wide.png" });
		expect(result.content).toHaveLength(2);
		expect(text(result)).toContain("[Image resized from 3000x1000 to 2000x667 (scale 0.67) to fit the model's limits]");
		const image = result.content[1];
		if (image?.type !== "image") throw new Error("expected an image block");
		const metadata = await sharp(Buffer.from(image.data, "base64")).metadata();
		expect([metadata.width, metadata.height]).toEqual([2000, 667]);
		expect(result.structuredContent).toMatchObject({ kind: "image", width: 2000, height: 667, originalWidth: 3000 });
	});

	it("uses the model's image limits, from the options or the call context", async () => {
		await writeFile(join(folder, "pic.png"), await gradientPng(800, 400));
		const fromOption = await read(
			{ path: "pic.png" },
			{ model: model(["text", "image"], { maxWidth: 400, maxHeight: 400 }) },
		);
		expect(fromOption.structuredContent).toMatchObject({ width: 400, height: 200 });
		const fromContext = await readIn(folder, { path: "pic.png" }, {}, undefined, {
			model: model(["text", "image"], { maxWidth: 200, maxHeight: 200 }),
		});
		expect(fromContext.structuredContent).toMatchObject({ width: 200, height: 100 });
		const override = await read({ path: "pic.png" }, { imageResize: () => ({ maxWidth: 100, maxHeight: 100 }) });
		expect(override.structuredContent).toMatchObject({ width: 100, height: 50 });
	});

	it("detects an image by content, not by its name", async () => {
		await writeFile(join(folder, "notes.txt"), await gradientPng(64, 32));
		const result = await read({ path: "notes.txt" });
		expect(result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
	});

	it("converts a BMP to PNG", async () => {
		await writeFile(
			join(folder, "icon.bmp"),
			encodeBmp(32, 16, () => [0, 128, 255, 255], { bitsPerPixel: 24 }),
		);
		const result = await read({ path: "icon.bmp" });
		expect(result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
		expect(text(result)).toContain("[Image converted from BMP to PNG]");
	});

	it("gives a model without image input a text note instead of the image", async () => {
		await writeFile(join(folder, "shot.png"), await gradientPng(300, 200));
		const result = await read({ path: "shot.png" }, { model: model(["text"]) });
		expect(result.content).toHaveLength(1);
		expect(text(result)).toMatch(/image\/png, 300x200.*does not take images/);
		expect(result.structuredContent).toMatchObject({ kind: "image", attached: false, width: 300 });
	});

	it("sends a big image untouched when auto-resize is off", async () => {
		const png = await gradientPng(2400, 20);
		await writeFile(join(folder, "strip.png"), png);
		const result = await read({ path: "strip.png" }, { autoResizeImages: false });
		expect(result.content[1]).toMatchObject({ type: "image", data: png.toString("base64") });
	});

	it("is an error for a damaged image", async () => {
		await writeFile(join(folder, "broken.png"), (await gradientPng(100, 100)).subarray(0, 60));
		await expect(read({ path: "broken.png" })).rejects.toThrow(
			/Could not read image .*broken\.png: \[Image could not be decoded/,
		);
	});
});
