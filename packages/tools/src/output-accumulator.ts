import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateTail } from "./truncate.js";

const NEWLINE = 0x0a;

export interface OutputAccumulatorOptions {
	/** Most lines the returned tail keeps. Default `DEFAULT_MAX_LINES`. */
	maxLines?: number;
	/** Most UTF-8 bytes the returned tail keeps. Default `DEFAULT_MAX_BYTES`. */
	maxBytes?: number;
	/** Existing folder that receives the full-output file once the output passes a limit. Default `os.tmpdir()`. */
	tempDir?: string;
	/** Start of the full-output file's name: `<prefix>-<random hex>.log`. Default `"gantry-output"`. */
	filePrefix?: string;
}

/** The output so far (or in full, from `finish`): its tail within the limits, and where the rest is. */
export interface OutputSnapshot {
	/** The last lines within both limits (whole lines; a single over-long last line keeps only its tail). */
	output: string;
	/** True when `output` is not the whole output. */
	truncated: boolean;
	/** How the tail was cut; `totalLines` and `totalBytes` count the whole output. */
	truncation: TruncationResult;
	/** The file holding the complete output, byte for byte; set once the output passed a limit. */
	fullOutputPath?: string;
	/** Why the full-output file could not be written, when it could not. */
	fullOutputError?: Error;
	/** Bytes received in all. */
	totalBytes: number;
	/** Lines received in all (a final line without a newline counts). */
	totalLines: number;
}

/**
 * Collects streamed output (e.g. a command's stdout and stderr) with bounded memory: bytes are decoded
 * as UTF-8 across chunk boundaries, only a tail of about twice the byte limit is kept in memory, and once
 * the output passes a limit the complete output is streamed to a file (mode 0600) in `tempDir`.
 *
 * @example
 * const accumulator = new OutputAccumulator({ filePrefix: "gantry-bash" });
 * child.stdout.on("data", (chunk) => accumulator.push(chunk));
 * const { output, fullOutputPath } = await accumulator.finish();
 */
export class OutputAccumulator {
	readonly maxLines: number;
	readonly maxBytes: number;
	private readonly tempDir: string;
	private readonly filePrefix: string;
	/** The tail is cut back to this many UTF-16 units (at least as many bytes) once it is twice as long. */
	private readonly keepChars: number;
	private readonly decoder = new StringDecoder("utf8");
	private parts: string[] = [];
	private partsLength = 0;
	/** Raw chunks held until the output passes a limit (then written to the file and dropped). */
	private pending: Buffer[] = [];
	private file: WriteStream | undefined;
	private filePath: string | undefined;
	private fileError: Error | undefined;
	private bytes = 0;
	private newlines = 0;
	private endsWithNewline = true;
	private finished = false;

	constructor(options: OutputAccumulatorOptions = {}) {
		this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.tempDir = options.tempDir ?? tmpdir();
		this.filePrefix = options.filePrefix ?? "gantry-output";
		this.keepChars = 2 * this.maxBytes;
	}

	/** Bytes received so far. */
	get totalBytes(): number {
		return this.bytes;
	}

	/** Lines received so far (a final line without a newline counts). */
	get totalLines(): number {
		return this.bytes === 0 ? 0 : this.newlines + (this.endsWithNewline ? 0 : 1);
	}

	/** True once the output passed a limit (the returned text will be a tail). */
	get truncated(): boolean {
		return this.bytes > this.maxBytes || this.totalLines > this.maxLines;
	}

	/** The full-output file, once the output passed a limit (undefined when it could not be written). */
	get fullOutputPath(): string | undefined {
		return this.fileError ? undefined : this.filePath;
	}

	/** Adds a chunk. Never throws for I/O: a failing full-output file is reported by `snapshot`/`finish`. */
	push(chunk: Buffer): void {
		if (this.finished) throw new Error("OutputAccumulator.push called after finish()");
		if (chunk.length === 0) return;
		this.bytes += chunk.length;
		let index = chunk.indexOf(NEWLINE);
		while (index !== -1) {
			this.newlines++;
			index = chunk.indexOf(NEWLINE, index + 1);
		}
		this.endsWithNewline = chunk[chunk.length - 1] === NEWLINE;

		if (this.file) {
			if (!this.fileError) this.file.write(chunk);
		} else if (this.truncated) this.spill(chunk);
		else this.pending.push(chunk);

		this.appendText(this.decoder.write(chunk));
	}

	/** The tail of the output so far, for progress updates. Cheap enough to call every 100 ms. */
	snapshot(): OutputSnapshot {
		const text = this.tailText();
		const totalBytes = this.bytes;
		const totalLines = this.totalLines;
		const base = { fullOutputPath: this.fullOutputPath, fullOutputError: this.fileError, totalBytes, totalLines };
		const tail = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		if (!this.truncated) return { ...base, output: text, truncated: false, truncation: tail };
		// The kept tail starts on a line boundary and holds more than the byte limit, so cutting it gives the
		// same text as cutting the whole output; only the totals (and, when the tail happened to fit, the
		// reason for the cut) come from the counters.
		if (tail.truncated) {
			const truncation = { ...tail, totalBytes, totalLines };
			return { ...base, output: tail.content, truncated: true, truncation };
		}
		// A cut tail is whole lines joined without the final newline, as truncateTail gives it.
		const content = tail.content.endsWith("\n") ? tail.content.slice(0, -1) : tail.content;
		const truncatedBy = tail.outputLines >= this.maxLines ? "lines" : "bytes";
		const outputBytes = Buffer.byteLength(content, "utf8");
		const truncation = { ...tail, content, truncated: true, truncatedBy, totalBytes, totalLines, outputBytes } as const;
		return { ...base, output: content, truncated: true, truncation };
	}

	/** Flushes the decoder and the full-output file, then returns the final snapshot. Never rejects. */
	async finish(): Promise<OutputSnapshot> {
		if (!this.finished) {
			this.finished = true;
			this.appendText(this.decoder.end());
			const file = this.file;
			if (file) await closeStream(file);
		}
		return this.snapshot();
	}

	private spill(chunk: Buffer): void {
		this.filePath = join(this.tempDir, `${this.filePrefix}-${randomBytes(8).toString("hex")}.log`);
		const file = createWriteStream(this.filePath, { flags: "wx", mode: 0o600 });
		file.on("error", (error) => {
			this.fileError = error;
		});
		for (const buffered of this.pending) file.write(buffered);
		file.write(chunk);
		this.pending = [];
		this.file = file;
	}

	private appendText(text: string): void {
		if (text === "") return;
		this.parts.push(text);
		this.partsLength += text.length;
		if (this.partsLength > 2 * this.keepChars) this.compact();
	}

	private tailText(): string {
		if (this.parts.length === 0) return "";
		if (this.parts.length > 1) this.parts = [this.parts.join("")];
		return this.parts[0];
	}

	/** Drops everything before the first line that starts within the last `keepChars` units (amortised O(1) per unit). */
	private compact(): void {
		const text = this.tailText();
		const from = text.length - this.keepChars;
		const newline = text.indexOf("\n", from - 1);
		// Without a line boundary the kept text is one over-long line, of which only the tail is ever shown.
		const start = newline === -1 || newline === text.length - 1 ? from : newline + 1;
		const kept = text.slice(start);
		this.parts = [kept];
		this.partsLength = kept.length;
	}
}

function closeStream(stream: WriteStream): Promise<void> {
	return new Promise((resolve) => {
		if (stream.closed) return resolve();
		stream.once("close", () => resolve());
		stream.end();
	});
}
