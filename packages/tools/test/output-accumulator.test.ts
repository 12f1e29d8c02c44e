import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OutputAccumulator } from "../src/output-accumulator.js";
import { DEFAULT_MAX_BYTES, truncateTail } from "../src/truncate.js";

let tempDir: string;

beforeEach(async () => {
	tempDir = await mkdtemp(join(tmpdir(), "gantry-accumulator-"));
});

afterEach(async () => {
	await rm(tempDir, { recursive: true, force: true });
});

/** A tiny deterministic generator so failures reproduce. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return state / 2147483648;
	};
}

function pushInChunks(accumulator: OutputAccumulator, bytes: Buffer, sizes: () => number): void {
	let offset = 0;
	while (offset < bytes.length) {
		const size = Math.max(1, sizes());
		accumulator.push(bytes.subarray(offset, offset + size));
		offset += size;
	}
}

describe("OutputAccumulator", () => {
	it("returns a small output whole, without a file", async () => {
		const accumulator = new OutputAccumulator({ tempDir });
		accumulator.push(Buffer.from("one\ntwo\n"));
		accumulator.push(Buffer.from("three"));
		const result = await accumulator.finish();
		expect(result.output).toBe("one\ntwo\nthree");
		expect(result.truncated).toBe(false);
		expect(result.fullOutputPath).toBeUndefined();
		expect(result.totalLines).toBe(3);
		expect(result.totalBytes).toBe(13);
		expect(await readdir(tempDir)).toEqual([]);
	});

	it("decodes characters split across chunks without mangling them", async () => {
		const text = "é😀中€ ok\nлиния ✓\n";
		const bytes = Buffer.from(text, "utf8");
		const accumulator = new OutputAccumulator({ tempDir });
		// One byte per chunk splits every multibyte character.
		for (const byte of bytes) accumulator.push(Buffer.from([byte]));
		expect((await accumulator.finish()).output).toBe(text);
	});

	it("spills the complete output, byte for byte, to a private file once it passes the byte limit", async () => {
		const lines = Array.from({ length: 4000 }, (_, index) => `line ${index} ${"é".repeat(index % 40)}`);
		// Invalid UTF-8 in the middle: the file keeps the raw bytes.
		const bytes = Buffer.concat([Buffer.from(`${lines.slice(0, 2000).join("\n")}\n`), Buffer.from([0xff, 0xfe, 0x0a])]);
		const all = Buffer.concat([bytes, Buffer.from(`${lines.slice(2000).join("\n")}\n`)]);
		const accumulator = new OutputAccumulator({ tempDir, filePrefix: "gantry-bash" });
		pushInChunks(accumulator, all, () => 777);
		const result = await accumulator.finish();

		expect(result.truncated).toBe(true);
		expect(result.totalBytes).toBe(all.length);
		expect(result.totalLines).toBe(4001);
		expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
		expect(result.output.endsWith(`${lines[3999]}`)).toBe(true);
		expect(result.truncation.outputLines).toBe(result.output.split("\n").length);

		const path = result.fullOutputPath!;
		expect(path.startsWith(join(tempDir, "gantry-bash-"))).toBe(true);
		expect(path.endsWith(".log")).toBe(true);
		expect((await readFile(path)).equals(all)).toBe(true);
		expect((await stat(path)).mode & 0o777).toBe(0o600);
	});

	it("cuts by lines when many short lines pass the line limit", async () => {
		const text = Array.from({ length: 3000 }, (_, index) => `${index}\n`).join("");
		const accumulator = new OutputAccumulator({ tempDir });
		accumulator.push(Buffer.from(text));
		const result = await accumulator.finish();
		expect(result.truncation.truncatedBy).toBe("lines");
		expect(result.truncation.outputLines).toBe(2000);
		expect(result.output.split("\n")[0]).toBe("1000");
		expect(await readFile(result.fullOutputPath!, "utf8")).toBe(text);
	});

	it("keeps only the tail of a single over-long last line, starting on a character boundary", async () => {
		const line = "€".repeat(200_000); // 600 KB, no newline
		const accumulator = new OutputAccumulator({ tempDir });
		pushInChunks(accumulator, Buffer.from(`first\n${line}`), () => 4096);
		const result = await accumulator.finish();
		expect(result.truncation.lastLinePartial).toBe(true);
		expect(result.totalLines).toBe(2);
		expect(result.output).toMatch(/^€+$/);
		expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
		expect(Buffer.byteLength(result.output)).toBeGreaterThan(DEFAULT_MAX_BYTES - 3);
	});

	it("gives the same tail as cutting the whole output, however the chunks fall", async () => {
		const next = random(42);
		for (let round = 0; round < 60; round++) {
			const pieces: string[] = [];
			const lineCount = 50 + Math.floor(next() * 400);
			for (let index = 0; index < lineCount; index++) {
				const long = next() < 0.05;
				const length = long ? 500 + Math.floor(next() * 3000) : Math.floor(next() * 60);
				const char = next() < 0.3 ? "ж" : next() < 0.1 ? "😀" : "x";
				pieces.push(`${index}:${char.repeat(length)}${next() < 0.97 || index === lineCount - 1 ? "\n" : ""}`);
			}
			if (next() < 0.3) pieces.push("tail-without-newline".repeat(Math.floor(next() * 200)));
			const text = pieces.join("");
			const options = { maxLines: 40, maxBytes: 1000 };
			const accumulator = new OutputAccumulator({ ...options, tempDir });
			pushInChunks(accumulator, Buffer.from(text), () => Math.floor(next() * 300));
			const result = await accumulator.finish();
			const expected = truncateTail(text, options);
			expect(result.output).toBe(expected.content);
			expect(result.truncated).toBe(expected.truncated);
			expect(result.totalLines).toBe(expected.totalLines);
			expect(result.truncation.lastLinePartial).toBe(expected.lastLinePartial);
			expect(result.truncation.truncatedBy).toBe(expected.truncatedBy);
			expect(result.truncation.outputLines).toBe(expected.outputLines);
			expect(result.truncation.outputBytes).toBe(expected.outputBytes);
			if (result.truncated) expect(await readFile(result.fullOutputPath!, "utf8")).toBe(text);
		}
	});

	it("snapshots the tail while output is still arriving", () => {
		const accumulator = new OutputAccumulator({ tempDir, maxLines: 3 });
		accumulator.push(Buffer.from("a\nb\n"));
		expect(accumulator.snapshot().output).toBe("a\nb\n");
		accumulator.push(Buffer.from("c\nd\ne"));
		const snapshot = accumulator.snapshot();
		expect(snapshot.output).toBe("c\nd\ne");
		expect(snapshot.truncated).toBe(true);
		expect(snapshot.fullOutputPath).toBeDefined();
	});

	it("leaves a character whose last bytes have not arrived out of a snapshot", async () => {
		const accumulator = new OutputAccumulator({ tempDir });
		accumulator.push(Buffer.from([0x61, 0x62, 0xe2, 0x82]));
		expect(accumulator.snapshot().output).toBe("ab");
		accumulator.push(Buffer.from([0xac]));
		expect(accumulator.snapshot().output).toBe("ab€");
		expect((await accumulator.finish()).output).toBe("ab€");
	});

	it("asks the producer to wait while the full-output file is behind", async () => {
		const accumulator = new OutputAccumulator({ tempDir });
		const chunk = Buffer.alloc(64 * 1024, "x\n");
		let refused = 0;
		for (let index = 0; index < 64; index++) {
			if (!accumulator.push(chunk)) {
				refused++;
				await accumulator.drained();
			}
		}
		expect(refused).toBeGreaterThan(0);
		const result = await accumulator.finish();
		expect((await stat(result.fullOutputPath!)).size).toBe(64 * chunk.length);
	});

	it("reports a full-output file it could not write instead of failing", async () => {
		const accumulator = new OutputAccumulator({ tempDir: join(tempDir, "missing"), maxLines: 1 });
		accumulator.push(Buffer.from("a\nb\nc\n"));
		const result = await accumulator.finish();
		expect(result.output).toBe("c");
		expect(result.truncated).toBe(true);
		expect(result.fullOutputPath).toBeUndefined();
		expect(result.fullOutputError?.message).toMatch(/ENOENT/);
	});

	it("refuses output after finish", async () => {
		const accumulator = new OutputAccumulator({ tempDir });
		await accumulator.finish();
		expect(() => accumulator.push(Buffer.from("late"))).toThrow(/after finish/);
	});
});
