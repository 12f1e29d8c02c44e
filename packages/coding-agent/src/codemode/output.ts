import { randomUUID } from "node:crypto";
import { join, posix } from "node:path";
import { errorText } from "@gantry/ai";
import type { WorkspaceFileSystem, WorkspaceWriteHandle } from "@gantry/tools";

/** Characters counted per token when turning a token budget into a size. */
export const CHARS_PER_TOKEN = 4;
/** The saved full-output file stops growing here, so a chatty script cannot fill the disk. */
export const MAX_SAVED_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Where the full-output file is written: the session's workspace (its file system and path syntax). */
export interface OutputFileHost {
	readonly fs: WorkspaceFileSystem;
	/** `true` for this machine (native paths); otherwise the host's paths are POSIX paths. */
	readonly isLocal: boolean;
}

export interface OutputCaptureOptions {
	/** Output budget in tokens (`CHARS_PER_TOKEN` characters each). */
	maxOutputTokens: number;
	/**
	 * Folder for the full-output file, a path on `host`; created (through `host.fs`) when needed, written
	 * only when the output overflows.
	 */
	tempDir: string;
	/** The workspace the file is written on (the session's). */
	host: OutputFileHost;
}

/** The output as the result shows it. */
export interface CapturedOutput {
	/** The whole output, or its head and tail around a notice when it went over the budget. */
	text: string;
	truncated: boolean;
	/** Characters produced in all. */
	totalChars: number;
	/** The file holding the full output (set when truncated and the file could be written). */
	fullOutputPath?: string;
}

/**
 * Collects a script's output in production order (entries joined with newlines) with bounded memory:
 * until the budget is reached everything is kept; past it the full text goes to a file in `tempDir` on
 * the workspace while only the head and a rolling tail stay in memory.
 *
 * `append` is synchronous (the script produces output without waiting) while the workspace writes are
 * not: saved text waits in a queue that one write at a time empties in order. What waits there counts
 * toward `MAX_SAVED_OUTPUT_BYTES`, so the queue never holds more than that. Every write failure is
 * caught and becomes the notice's reason; none is left unhandled.
 */
export class OutputCapture {
	readonly #maxChars: number;
	readonly #tempDir: string;
	readonly #host: OutputFileHost;
	#chunks: string[] = [];
	#length = 0;
	#head = "";
	#tail = "";
	#spilled = false;
	#filePath: string | undefined;
	#handle: WorkspaceWriteHandle | undefined;
	/** Set once the file takes nothing more (it failed or was closed). */
	#fileClosed = false;
	/** Text waiting for the file, in order. */
	#pending: Buffer[] = [];
	#flushQueued = false;
	/** Bytes accepted for the file: written or waiting. */
	#acceptedBytes = 0;
	#capped = false;
	#fileProblem: string | undefined;
	/** The open, then each flush and the close, one after another; never rejects. */
	#work: Promise<void> = Promise.resolve();
	#finished = false;

	constructor(options: OutputCaptureOptions) {
		this.#maxChars = Math.max(1, options.maxOutputTokens) * CHARS_PER_TOKEN;
		this.#tempDir = options.tempDir;
		this.#host = options.host;
	}

	/** Adds one entry (a `text()` call, a console line, the returned value). Ignored after `finish()`. */
	append(entry: string): void {
		if (this.#finished) return;
		const chunk = this.#length === 0 ? entry : `\n${entry}`;
		this.#length += chunk.length;
		if (!this.#spilled) {
			this.#chunks.push(chunk);
			if (this.#length > this.#maxChars) this.#spill();
			return;
		}
		this.#save(chunk);
		const tailChars = this.#maxChars - this.#head.length;
		this.#tail = (this.#tail + chunk).slice(-tailChars);
	}

	/**
	 * Waits until the file (if any) holds everything and is closed, then returns what the result shows.
	 * Call once. Never rejects. When `signal` fires first, it stops waiting and says the file may be
	 * incomplete.
	 */
	async finish(signal?: AbortSignal): Promise<CapturedOutput> {
		this.#finished = true;
		if (this.#spilled) {
			this.#work = this.#work.then(() => this.#close());
			await untilDoneOrAborted(this.#work, signal, () => {
				this.#fileProblem ??= "saving it was aborted; the file may be incomplete";
			});
		}
		return this.#result();
	}

	/** Settles once the file work (open, writes, close) is over, also after an aborted `finish`. Never rejects. */
	get settled(): Promise<void> {
		return this.#work;
	}

	#result(): CapturedOutput {
		if (!this.#spilled) return { text: this.#chunks.join(""), truncated: false, totalChars: this.#length };
		const head = snapHeadToLine(this.#head);
		const tail = snapTailToLine(this.#tail);
		const omitted = this.#length - head.length - tail.length;
		const budgetTokens = this.#maxChars / CHARS_PER_TOKEN;
		const problem =
			this.#fileProblem ?? (this.#capped ? `the file stops at ${MAX_SAVED_OUTPUT_BYTES} bytes` : undefined);
		let where: string;
		if (this.#filePath !== undefined && problem === undefined) where = `the full output is in ${this.#filePath}`;
		else if (this.#filePath !== undefined) where = `the first part of the output is in ${this.#filePath} (${problem})`;
		else where = `the full output could not be saved (${problem})`;
		const notice = `[... ${omitted} characters omitted: the output was ${this.#length} characters, over the ${budgetTokens}-token budget; ${where} ...]`;
		const captured: CapturedOutput = {
			text: `${head}\n\n${notice}\n\n${tail}`,
			truncated: true,
			totalChars: this.#length,
		};
		if (this.#filePath !== undefined) captured.fullOutputPath = this.#filePath;
		return captured;
	}

	#spill(): void {
		const all = this.#chunks.join("");
		this.#chunks = [];
		this.#spilled = true;
		const headChars = Math.floor(this.#maxChars / 2);
		this.#head = all.slice(0, headChars);
		this.#tail = all.slice(-(this.#maxChars - headChars));
		const name = `codemode-output-${Date.now()}-${randomUUID().slice(0, 8)}.txt`;
		const path = this.#host.isLocal ? join(this.#tempDir, name) : posix.join(this.#tempDir, name);
		this.#work = this.#open(path);
		this.#save(all);
	}

	async #open(path: string): Promise<void> {
		try {
			await this.#host.fs.mkdir(this.#tempDir);
			this.#handle = await this.#host.fs.createWriteStream(path);
			this.#filePath = path;
		} catch (error) {
			await this.#stopFile(errorText(error));
		}
	}

	/** Queues `text` for the file, up to the size cap. */
	#save(text: string): void {
		if (this.#fileClosed || this.#capped) return;
		const bytes = Buffer.from(text, "utf8");
		const room = MAX_SAVED_OUTPUT_BYTES - this.#acceptedBytes;
		if (bytes.length > room) this.#capped = true;
		const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
		if (kept.length === 0) return;
		this.#pending.push(kept);
		this.#acceptedBytes += kept.length;
		if (this.#flushQueued) return;
		this.#flushQueued = true;
		this.#work = this.#work.then(() => this.#flush());
	}

	/** Writes everything waiting as one batch (what arrives meanwhile gets the next flush). */
	async #flush(): Promise<void> {
		this.#flushQueued = false;
		const handle = this.#handle;
		const first = this.#pending[0];
		if (handle === undefined || this.#fileClosed || first === undefined) return;
		const batch = this.#pending.length === 1 ? first : Buffer.concat(this.#pending);
		this.#pending = [];
		try {
			await handle.write(batch);
		} catch (error) {
			await this.#stopFile(errorText(error));
		}
	}

	async #close(): Promise<void> {
		const handle = this.#handle;
		this.#handle = undefined;
		this.#fileClosed = true;
		this.#pending = [];
		if (handle === undefined) return;
		try {
			await handle.close();
		} catch (error) {
			this.#fileProblem ??= errorText(error);
		}
	}

	/** The file takes nothing more; `problem` says why. */
	async #stopFile(problem: string): Promise<void> {
		this.#fileProblem ??= problem;
		this.#fileClosed = true;
		this.#pending = [];
		const handle = this.#handle;
		this.#handle = undefined;
		try {
			await handle?.close();
		} catch {
			// The file is abandoned either way and its problem is already reported.
		}
	}
}

/** Resolves when `work` settles, or sooner (after calling `onAbort`) when `signal` fires. */
async function untilDoneOrAborted(work: Promise<void>, signal: AbortSignal | undefined, onAbort: () => void) {
	if (signal === undefined) return work;
	if (signal.aborted) {
		onAbort();
		return;
	}
	let stop: () => void = () => {};
	const aborted = new Promise<void>((resolve) => {
		stop = () => {
			onAbort();
			resolve();
		};
		signal.addEventListener("abort", stop, { once: true });
	});
	try {
		await Promise.race([work, aborted]);
	} finally {
		signal.removeEventListener("abort", stop);
	}
}

/** Cuts the head back to its last line break when that keeps at least half of it. */
function snapHeadToLine(head: string): string {
	const cut = head.lastIndexOf("\n");
	return cut >= head.length / 2 ? head.slice(0, cut) : head;
}

/** Starts the tail after its first line break when that keeps at least half of it. */
function snapTailToLine(tail: string): string {
	const cut = tail.indexOf("\n");
	return cut !== -1 && cut <= tail.length / 2 ? tail.slice(cut + 1) : tail;
}
