import { looksBinary } from "@gantry/tools";
import { usageError } from "./errors.js";

/** The most piped input a prompt takes: about 100,000 tokens, past which a file the model reads is better. */
export const MAX_PIPED_BYTES = 400 * 1024;

/** Bytes as people read them: `812 B`, `14.2 KB`, `1.3 MB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** How many leading bytes of stdin decide whether it is text, as `read` decides for a file. */
const SNIFF_BYTES = 8 * 1024;

/**
 * Reads stdin to its end as UTF-8 and stops early with a usage error once it brings more than `limit`
 * bytes, or when it is binary data (NUL bytes, or mostly bytes that are not text — the test `read` uses
 * for files): nothing is sent to the model then.
 */
export async function readPipedInput(stream: NodeJS.ReadableStream, limit = MAX_PIPED_BYTES): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
		size += buffer.length;
		if (size > limit) {
			throw usageError(
				`stdin brings more than ${formatBytes(limit)}, the most a prompt takes: save it to a file and name the file in the prompt instead`,
			);
		}
		chunks.push(buffer);
	}
	const data = Buffer.concat(chunks);
	if (looksBinary(data.subarray(0, SNIFF_BYTES))) {
		throw usageError(
			`stdin holds binary data (${formatBytes(data.length)}), not text: the model is sent text only. Save it to a file and name the file in the prompt (read reports what it is), or pipe a text form of it (xxd, base64)`,
		);
	}
	return data.toString("utf8");
}

/** A Markdown fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenceFor(text: string): string {
	const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
	return "`".repeat(Math.max(3, longest + 1));
}

/**
 * The prompt with piped input after it: a line naming its size, then the input in a fence, e.g. for
 * `git diff | gantry "Review this diff"`. Input that is only whitespace leaves the prompt as it is.
 */
export function appendPipedInput(prompt: string, input: string): string {
	const body = input.replace(/\s+$/, "");
	if (body.trim() === "") return prompt;
	const lines = body.split("\n").length;
	const size = `${formatBytes(Buffer.byteLength(input))}, ${lines} line${lines === 1 ? "" : "s"}`;
	const fence = fenceFor(body);
	return `${prompt}\n\nInput piped on stdin (${size}):\n${fence}\n${body}\n${fence}`;
}
