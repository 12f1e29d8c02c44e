import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { errorText, withoutUndefined } from "@gantry/ai";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateTail } from "./truncate.js";
import { characterStart } from "./utf8-boundary.js";
import { localFileSystem } from "./workspace/local/file-system.js";
import { localTempDir } from "./workspace/local/paths.js";
import type { WorkspaceFileSystem, WorkspaceWriteHandle } from "./workspace/types.js";

const NEWLINE = 0x0a;
/** Unwritten bytes of the full-output file above which `push` asks the producer to wait. */
const FILE_HIGH_WATER_MARK = 1024 * 1024;

export interface OutputAccumulatorOptions {
	/** Most lines the returned tail keeps. Default `DEFAULT_MAX_LINES`. */
	maxLines?: number;
	/** Most UTF-8 bytes the returned tail keeps. Default `DEFAULT_MAX_BYTES`. */
	maxBytes?: number;
	/** Existing folder that receives the full-output file once the output passes a limit. Default `os.tmpdir()`. */
	tempDir?: string;
	/** Start of the full-output file's name: `<prefix>-<random hex>.log`. Default `"gantry-output"`. */
	filePrefix?: string;
	/** The file system the full-output file is written to (a Workspace's `fs`). Default this machine's. */
	files?: WorkspaceFileSystem;
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
 * Collects streamed output (e.g. a command's stdout and stderr) with bounded memory: only the last bytes
 * (a little over twice the byte limit) are kept, and once the output passes a limit the complete output
 * is streamed, byte for byte, to a file (mode 0600) in `tempDir`. The kept bytes are decoded as UTF-8 only
 * when a snapshot is taken, as one contiguous run, so a character split across chunks is never mangled
 * and a flood costs no per-chunk string work.
 *
 * Chunks are kept by reference: do not reuse a Buffer after passing it to `push`.
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
	/** Old chunks are dropped only while at least this many bytes stay (whole lines of the tail fit in it). */
	private readonly keepBytes: number;
	/** The kept chunks are `chunks[head..]`; dropping advances `head` (the array is compacted now and then). */
	private chunks: Buffer[] = [];
	private head = 0;
	private keptBytes = 0;
	private dropped = false;
	private readonly files: WorkspaceFileSystem;
	/** The full-output file's writes, one after another; settles to the open file (undefined when it failed). */
	private fileQueue: Promise<WorkspaceWriteHandle | undefined> | undefined;
	/** Bytes handed to the full-output file that it has not taken yet. */
	private unwritten = 0;
	private drainWaiters: (() => void)[] = [];
	private filePath: string | undefined;
	private fileError: Error | undefined;
	private bytes = 0;
	private newlines = 0;
	private endsWithNewline = true;
	private finished = false;

	constructor(options: OutputAccumulatorOptions = {}) {
		this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.tempDir = options.tempDir ?? localTempDir();
		this.files = options.files ?? localFileSystem;
		this.filePrefix = options.filePrefix ?? "gantry-output";
		this.keepBytes = 2 * this.maxBytes;
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

	/**
	 * Adds a chunk. Returns false when the full-output file has fallen more than 1 MiB behind: the producer
	 * should then wait for `drained()` before pushing more, which keeps memory bounded on a slow disk.
	 * Never throws for I/O (a failing full-output file is reported by `snapshot`/`finish`); throws when
	 * called after `finish`.
	 */
	push(chunk: Buffer): boolean {
		if (this.finished) throw new Error("OutputAccumulator.push called after finish()");
		if (chunk.length === 0) return true;
		this.bytes += chunk.length;
		let index = chunk.indexOf(NEWLINE);
		while (index !== -1) {
			this.newlines++;
			index = chunk.indexOf(NEWLINE, index + 1);
		}
		this.endsWithNewline = chunk[chunk.length - 1] === NEWLINE;

		this.chunks.push(chunk);
		this.keptBytes += chunk.length;
		if (this.fileQueue) {
			this.writeToFile(chunk);
		} else if (this.truncated) {
			// Nothing was dropped yet (that needs twice the byte limit), so the kept chunks are the whole output.
			this.spill();
		}
		this.dropOldChunks();
		return this.fileError !== undefined || this.unwritten <= FILE_HIGH_WATER_MARK;
	}

	/** Settles once the full-output file has caught up (at once when it is not behind). Never rejects. */
	drained(): Promise<void> {
		if (this.fileError || this.unwritten <= FILE_HIGH_WATER_MARK) return Promise.resolve();
		return new Promise((resolve) => this.drainWaiters.push(resolve));
	}

	/** The tail of the output so far, for progress updates. Cheap enough to call every 100 ms. */
	snapshot(): OutputSnapshot {
		return this.buildSnapshot(this.finished ? this.keptText() : this.keptText(true));
	}

	/** Writes out the full-output file, then returns the final snapshot. Never rejects. */
	async finish(): Promise<OutputSnapshot> {
		if (!this.finished) {
			this.finished = true;
			const handle = await this.fileQueue;
			if (handle) await handle.close().catch((error: unknown) => this.failFile(error));
		}
		return this.snapshot();
	}

	private buildSnapshot(text: string): OutputSnapshot {
		const totalBytes = this.bytes;
		const totalLines = this.totalLines;
		const base = withoutUndefined({
			fullOutputPath: this.fullOutputPath,
			fullOutputError: this.fileError,
			totalBytes,
			totalLines,
		});
		const tail = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		if (!this.truncated) return { ...base, output: text, truncated: false, truncation: tail };
		// The kept text starts on a line boundary and holds more than the byte limit, so cutting it gives the
		// same text as cutting the whole output; only the totals (and, when the kept text happened to fit,
		// the reason for the cut) come from the counters.
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

	private spill(): void {
		this.filePath = join(this.tempDir, `${this.filePrefix}-${randomBytes(8).toString("hex")}.log`);
		this.fileQueue = this.files.createWriteStream(this.filePath).catch((error: unknown) => {
			this.failFile(error);
			return undefined;
		});
		for (const chunk of this.chunks.slice(this.head)) this.writeToFile(chunk);
	}

	/** Queues a chunk for the full-output file; `unwritten` counts it until the file took it. */
	private writeToFile(chunk: Buffer): void {
		if (this.fileError || this.fileQueue === undefined) return;
		this.unwritten += chunk.length;
		this.fileQueue = this.fileQueue.then(async (handle) => {
			try {
				if (handle && !this.fileError) await handle.write(chunk);
			} catch (error) {
				this.failFile(error);
			}
			this.unwritten -= chunk.length;
			if (this.unwritten <= FILE_HIGH_WATER_MARK || this.fileError) this.wakeDrainWaiters();
			return handle;
		});
	}

	private failFile(error: unknown): void {
		this.fileError ??= error instanceof Error ? error : new Error(errorText(error));
		this.wakeDrainWaiters();
	}

	private wakeDrainWaiters(): void {
		const waiters = this.drainWaiters;
		this.drainWaiters = [];
		for (const wake of waiters) wake();
	}

	private dropOldChunks(): void {
		for (;;) {
			const oldest = this.chunks[this.head];
			// A byte limit above 0 always keeps the newest chunk; one of 0 drops every chunk, which is not supported.
			if (oldest === undefined)
				throw new Error(`OutputAccumulator dropped all its chunks (keeping ${this.keepBytes} bytes)`);
			if (this.keptBytes - oldest.length < this.keepBytes) break;
			this.keptBytes -= oldest.length;
			this.head++;
			this.dropped = true;
		}
		if (this.head > 64 && this.head * 2 > this.chunks.length) {
			this.chunks = this.chunks.slice(this.head);
			this.head = 0;
		}
	}

	/**
	 * The kept bytes as text. When older output was dropped, it starts after the first newline (or, in one
	 * over-long line, on the first whole character). `withoutPartialEnd` leaves out a character whose last
	 * bytes have not arrived yet.
	 */
	private keptText(withoutPartialEnd = false): string {
		if (this.head >= this.chunks.length) return "";
		const single = this.head === 0 && this.chunks.length === 1 ? this.chunks[0] : undefined;
		const kept = single ?? Buffer.concat(this.chunks.slice(this.head));
		if (this.head > 0 || this.chunks.length > 1) {
			this.chunks = [kept];
			this.head = 0;
		}
		let start = 0;
		if (this.dropped) {
			const newline = kept.indexOf(NEWLINE);
			if (newline !== -1 && newline < kept.length - 1) start = newline + 1;
			else start = characterStart(kept, start);
		}
		const end = withoutPartialEnd ? completeLength(kept) : kept.length;
		return kept.toString("utf8", start, Math.max(start, end));
	}
}

/** The length of `bytes` without a trailing UTF-8 sequence that is still missing bytes. */
function completeLength(bytes: Buffer): number {
	for (let back = 1; back <= Math.min(4, bytes.length); back++) {
		const byte = bytes[bytes.length - back];
		if (byte === undefined) break;
		if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead byte
		const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
		return needed > back ? bytes.length - back : bytes.length;
	}
	return bytes.length;
}
