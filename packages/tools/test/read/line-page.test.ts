import { describe, expect, it } from "vitest";
import { type ChunkReader, type LinePageRequest, readLinePage } from "../../src/read/line-page.js";

function readerOf(file: Buffer, counter?: { reads: number }): ChunkReader {
	return {
		async read(buffer, offset, length, position) {
			if (counter) counter.reads++;
			return file.copy(buffer, offset, position, Math.min(file.length, position + length));
		},
	};
}

/** What the page should be, computed the slow way: split the whole text. */
function expected(content: string, request: Omit<LinePageRequest, "fileSize" | "chunkSize">) {
	const lines = content === "" ? [] : content.split("\n");
	if (content.endsWith("\n")) lines.pop();
	const total = lines.length;
	const fileSize = Buffer.byteLength(content);
	if (request.offset > total) return { text: "", lineCount: 0, stop: "end", moreLines: false, totalLines: total };
	const kept: string[] = [];
	let stop = "end";
	for (const line of lines.slice(request.offset - 1)) {
		if (kept.length === request.maxLines) {
			stop = "lines";
			break;
		}
		if (Buffer.byteLength([...kept, line].join("\n")) > request.maxBytes) {
			stop = "bytes";
			break;
		}
		kept.push(line);
	}
	const counted = stop === "end" || fileSize <= request.countLinesUpTo;
	return {
		text: kept.join("\n"),
		lineCount: kept.length,
		stop,
		moreLines: stop !== "end",
		totalLines: counted ? total : undefined,
	};
}

function randomText(random: () => number): string {
	const pieces = ["", "a", "bc", "héllo", "€€", "\r", "line of text", "x".repeat(20)];
	const lineCount = Math.floor(random() * 12);
	const lines = Array.from({ length: lineCount }, () =>
		Array.from({ length: Math.floor(random() * 3) }, () => pieces[Math.floor(random() * pieces.length)]).join(""),
	);
	return lines.join("\n") + (random() < 0.5 ? "\n" : "");
}

describe("readLinePage", () => {
	it("matches splitting the whole file, for every chunk size and limit", async () => {
		let state = 42;
		const random = () => {
			state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
			return state / 0x1_0000_0000;
		};
		for (let round = 0; round < 600; round++) {
			const content = randomText(random);
			const file = Buffer.from(content);
			const request = {
				offset: 1 + Math.floor(random() * 10),
				maxLines: 1 + Math.floor(random() * 6),
				maxBytes: Math.floor(random() * 60),
				countLinesUpTo: random() < 0.5 ? 0 : Number.POSITIVE_INFINITY,
			};
			const chunkSize = 1 + Math.floor(random() * 9);
			const page = await readLinePage(readerOf(file), { ...request, fileSize: file.length, chunkSize });
			const want = expected(content, request);
			const label = JSON.stringify({ content, request, chunkSize });
			expect({ ...page, bytes: undefined, text: page.bytes.toString() }, label).toEqual({
				...want,
				bytes: undefined,
			});
		}
	});

	it("stops reading once the page is full and one more byte is known", async () => {
		const file = Buffer.from(`${"line\n".repeat(100_000)}`);
		const counter = { reads: 0 };
		const page = await readLinePage(readerOf(file, counter), {
			offset: 10,
			maxLines: 5,
			maxBytes: 1000,
			countLinesUpTo: 0,
			fileSize: file.length,
			chunkSize: 64,
		});
		expect(page).toMatchObject({ lineCount: 5, stop: "lines", moreLines: true });
		expect(page.totalLines).toBeUndefined();
		expect(counter.reads).toBe(2);
	});

	it("gives up on a line longer than the limit without reading to its end", async () => {
		const file = Buffer.from(`${"q".repeat(10_000_000)}\nshort\n`);
		const counter = { reads: 0 };
		const page = await readLinePage(readerOf(file, counter), {
			offset: 1,
			maxLines: 10,
			maxBytes: 100,
			countLinesUpTo: 0,
			fileSize: file.length,
			chunkSize: 64,
		});
		expect(page).toMatchObject({ lineCount: 0, stop: "bytes", moreLines: true });
		expect(counter.reads).toBe(2);
	});

	it("notices lines added after the size was taken", async () => {
		const file = Buffer.from("a\nb\nc\n");
		const page = await readLinePage(readerOf(file), {
			offset: 1,
			maxLines: 2,
			maxBytes: 100,
			countLinesUpTo: 0,
			fileSize: 2,
			chunkSize: 4,
		});
		expect(page).toMatchObject({ lineCount: 2, stop: "lines", moreLines: true });
	});
});
