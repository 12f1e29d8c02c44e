// Benchmark: the read tool against its floors, in the same run.
// - one 2000-line page deep in a 100,000-line file (offset 90,000) vs `sed -n '90000,91999p'` and vs a
//   minimal Node read-and-scan of the same lines (target: <= 2x the Node floor);
// - a 4000 x 3000 noise PNG read as an image vs one sharp resize + JPEG encode of the file (target: <= 1.5x).
// Run after `npx tsc -p tsconfig.build.json`.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import sharp from "sharp";
import { createReadToolDefinition } from "../dist/read/read.js";
import { printTable } from "./harness.mjs";

const LINE_COUNT = 100_000;
const PAGE_OFFSET = 90_000;
const PAGE_LINES = 2000;
const IMAGE_WIDTH = 4000;
const IMAGE_HEIGHT = 3000;
const work = fileURLToPath(new URL("../.bench-work/read/", import.meta.url));
const run = promisify(execFile);
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"];

/** Short, varied lines (about 20 bytes) so that a 2000-line page stays under the 50 KiB limit. */
function lineText(index) {
	return `${index}\t${WORDS[index % WORDS.length]}${"=".repeat(index % 9)}`;
}

async function prepareText() {
	const path = join(work, "lines.txt");
	if (!existsSync(path))
		await writeFile(path, `${Array.from({ length: LINE_COUNT }, (_, index) => lineText(index + 1)).join("\n")}\n`);
	return path;
}

async function prepareImage() {
	const path = join(work, "noise-4000x3000.png");
	if (existsSync(path)) return path;
	const pixels = Buffer.allocUnsafe(IMAGE_WIDTH * IMAGE_HEIGHT * 3);
	let state = 7;
	for (let index = 0; index < pixels.length; index++) {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		pixels[index] = state >>> 24;
	}
	await sharp(pixels, { raw: { width: IMAGE_WIDTH, height: IMAGE_HEIGHT, channels: 3 } })
		.png({ compressionLevel: 6 })
		.toFile(path);
	return path;
}

/** The floor: read chunks, count newlines in the bytes up to the page, decode only the page. */
async function nodeReadPage(path, firstLine, lineCount) {
	const handle = await open(path, "r");
	try {
		const buffer = Buffer.allocUnsafe(256 * 1024);
		const pieces = [];
		let line = 1;
		let position = 0;
		let collecting = firstLine === 1;
		for (;;) {
			const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
			if (bytesRead === 0) break;
			position += bytesRead;
			let index = 0;
			let from = collecting ? 0 : -1;
			let done = false;
			while (index < bytesRead) {
				const newline = buffer.indexOf(10, index);
				if (newline < 0 || newline >= bytesRead) break;
				index = newline + 1;
				line++;
				if (!collecting && line === firstLine) {
					collecting = true;
					from = index;
				} else if (collecting && line === firstLine + lineCount) {
					pieces.push(Buffer.from(buffer.subarray(from, newline)));
					done = true;
					break;
				}
			}
			if (done) break;
			if (collecting) pieces.push(Buffer.from(buffer.subarray(from, bytesRead)));
		}
		return Buffer.concat(pieces).toString("utf8");
	} finally {
		await handle.close();
	}
}

/**
 * Median wall time of each function, running them in turn (a, b, c, a, b, c, …) so that a shared, busy
 * machine slows every case alike instead of whichever happens to run during a burst.
 */
async function interleavedMedians(functions, { runs, warmup }) {
	const entries = Object.entries(functions);
	for (let round = 0; round < warmup; round++) for (const [, run] of entries) await run();
	const times = Object.fromEntries(entries.map(([name]) => [name, []]));
	for (let round = 0; round < runs; round++)
		for (const [name, run] of entries) {
			const start = performance.now();
			await run();
			times[name].push(performance.now() - start);
		}
	return Object.fromEntries(
		entries.map(([name]) => {
			const sorted = times[name].sort((a, b) => a - b);
			return [name, sorted[Math.floor(sorted.length / 2)]];
		}),
	);
}

async function floorImage(path) {
	const bytes = await readFile(path);
	return sharp(bytes).resize(2000, 2000, { fit: "inside" }).jpeg({ quality: 85 }).toBuffer();
}

await mkdir(work, { recursive: true });
const textPath = await prepareText();
const imagePath = await prepareImage();
const tool = createReadToolDefinition(work);

// Check that all three return the same lines before timing them.
const lastLine = PAGE_OFFSET + PAGE_LINES - 1;
const page = await tool.execute("bench", { path: textPath, offset: PAGE_OFFSET, limit: PAGE_LINES });
const expected = Array.from({ length: PAGE_LINES }, (_, index) => lineText(PAGE_OFFSET + index)).join("\n");
if (page.structuredContent.content !== expected) throw new Error("read returned the wrong page");
if ((await nodeReadPage(textPath, PAGE_OFFSET, PAGE_LINES)) !== expected) throw new Error("node floor is wrong");
const sedOutput = (await run("sed", ["-n", `${PAGE_OFFSET},${lastLine}p`, textPath], { maxBuffer: 1 << 24 })).stdout;
if (sedOutput !== `${expected}\n`) throw new Error("sed floor is wrong");

const sedArguments = ["-n", `${PAGE_OFFSET},${lastLine}p`, textPath];
const text = await interleavedMedians(
	{
		readPage: () => tool.execute("bench", { path: textPath, offset: PAGE_OFFSET, limit: PAGE_LINES }),
		nodePage: () => nodeReadPage(textPath, PAGE_OFFSET, PAGE_LINES),
		sedPage: () => run("sed", sedArguments, { maxBuffer: 1 << 24 }),
		readFirst: () => tool.execute("bench", { path: textPath }),
		nodeFirst: () => nodeReadPage(textPath, 1, PAGE_LINES),
	},
	{ runs: 21, warmup: 3 },
);

const image = await tool.execute("bench", { path: imagePath });
if (image.structuredContent.width !== 2000 || image.structuredContent.height !== 1500)
	throw new Error(`image came back ${image.structuredContent.width}x${image.structuredContent.height}`);
const images = await interleavedMedians(
	{ read: () => tool.execute("bench", { path: imagePath }), floor: () => floorImage(imagePath) },
	{ runs: 9, warmup: 1 },
);

const fileSize = (await readFile(textPath)).length;
const imageSize = (await readFile(imagePath)).length;
printTable("read", [
	{
		case: `page at line ${PAGE_OFFSET} (${PAGE_LINES} lines) of ${LINE_COUNT}`,
		gantryMs: text.readPage,
		floor: "node read-and-scan",
		floorMs: text.nodePage,
		target: "<= 2x",
		note: `file ${(fileSize / 1e6).toFixed(1)} MB; read also counts the total (file < 4 MB)`,
	},
	{
		case: `page at line ${PAGE_OFFSET} (${PAGE_LINES} lines) of ${LINE_COUNT}`,
		gantryMs: text.readPage,
		floor: `sed -n '${PAGE_OFFSET},${lastLine}p' (spawn)`,
		floorMs: text.sedPage,
	},
	{
		case: `first page (${PAGE_LINES} lines) of ${LINE_COUNT}`,
		gantryMs: text.readFirst,
		floor: "node read-and-scan",
		floorMs: text.nodeFirst,
		note: "read also counts all lines (file < 4 MB); the floor stops after the page",
	},
	{
		case: `image ${IMAGE_WIDTH}x${IMAGE_HEIGHT} noise PNG -> 2000x1500 JPEG`,
		gantryMs: images.read,
		floor: "readFile + sharp resize + jpeg",
		floorMs: images.floor,
		target: "<= 1.5x",
		note: `PNG ${(imageSize / 1e6).toFixed(1)} MB`,
	},
]);
