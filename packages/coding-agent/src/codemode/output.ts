import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Characters counted per token when turning a token budget into a size. */
export const CHARS_PER_TOKEN = 4;
/** The saved full-output file stops growing here, so a chatty script cannot fill the disk. */
export const MAX_SAVED_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface OutputCaptureOptions {
	/** Output budget in tokens (`CHARS_PER_TOKEN` characters each). */
	maxOutputTokens: number;
	/** Folder for the full-output file, created when needed; written only when the output overflows. */
	tempDir: string;
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
 * until the budget is reached everything is kept; past it the full text goes to a file in `tempDir`
 * while only the head and a rolling tail stay in memory.
 */
export class OutputCapture {
	readonly #maxChars: number;
	readonly #tempDir: string;
	#chunks: string[] = [];
	#length = 0;
	#head = "";
	#tail = "";
	#spilled = false;
	#file: number | undefined;
	#filePath: string | undefined;
	#fileBytes = 0;
	#fileProblem: string | undefined;

	constructor(options: OutputCaptureOptions) {
		this.#maxChars = Math.max(1, options.maxOutputTokens) * CHARS_PER_TOKEN;
		this.#tempDir = options.tempDir;
	}

	/** Adds one entry (a `text()` call, a console line, the returned value). */
	append(entry: string): void {
		const chunk = this.#length === 0 ? entry : `\n${entry}`;
		this.#length += chunk.length;
		if (!this.#spilled) {
			this.#chunks.push(chunk);
			if (this.#length > this.#maxChars) this.#spill();
			return;
		}
		this.#writeToFile(chunk);
		const tailChars = this.#maxChars - this.#head.length;
		this.#tail = (this.#tail + chunk).slice(-tailChars);
	}

	/** Closes the file (if any) and returns what the result shows. Call once. */
	finish(): CapturedOutput {
		if (this.#file !== undefined) this.#stopFile(undefined);
		if (!this.#spilled) return { text: this.#chunks.join(""), truncated: false, totalChars: this.#length };
		const head = snapHeadToLine(this.#head);
		const tail = snapTailToLine(this.#tail);
		const omitted = this.#length - head.length - tail.length;
		const budgetTokens = this.#maxChars / CHARS_PER_TOKEN;
		let where: string;
		if (this.#filePath !== undefined && this.#fileProblem === undefined)
			where = `the full output is in ${this.#filePath}`;
		else if (this.#filePath !== undefined)
			where = `the first part of the output is in ${this.#filePath} (${this.#fileProblem})`;
		else where = `the full output could not be saved (${this.#fileProblem})`;
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
		try {
			mkdirSync(this.#tempDir, { recursive: true });
			this.#filePath = join(this.#tempDir, `codemode-output-${Date.now()}-${randomUUID().slice(0, 8)}.txt`);
			this.#file = openSync(this.#filePath, "w");
		} catch (error) {
			this.#filePath = undefined;
			this.#fileProblem = (error as Error).message;
			return;
		}
		this.#writeToFile(all);
	}

	#writeToFile(text: string): void {
		if (this.#file === undefined) return;
		const bytes = Buffer.from(text, "utf8");
		try {
			const room = MAX_SAVED_OUTPUT_BYTES - this.#fileBytes;
			writeSync(this.#file, bytes, 0, Math.min(room, bytes.length));
			this.#fileBytes += Math.min(room, bytes.length);
			if (bytes.length > room) this.#stopFile(`the file stops at ${MAX_SAVED_OUTPUT_BYTES} bytes`);
		} catch (error) {
			this.#stopFile((error as Error).message);
		}
	}

	/** Closes the file; `problem` says why it stopped early (undefined when the output simply ended). */
	#stopFile(problem: string | undefined): void {
		this.#fileProblem ??= problem;
		const file = this.#file;
		this.#file = undefined;
		try {
			if (file !== undefined) closeSync(file);
		} catch {
			// The file is abandoned either way; its problem is already reported.
		}
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
