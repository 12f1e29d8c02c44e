import { formatSize, type TruncationResult } from "../truncate.js";

/** How an output was cut to the limits, as `details` reports it (the kept text itself is the result's content). */
export type OutputTruncation = Omit<TruncationResult, "content">;

/** The truncation facts without the kept text, so `details` does not carry the output twice. */
export function describeTruncation(result: TruncationResult): OutputTruncation {
	const { content, ...facts } = result;
	void content;
	return facts;
}

/** `[Output cut at 50.0 KB: 12 of 40 paths shown. <hint>]` */
export function outputCutNotice(result: TruncationResult, shown: string, hint: string): string {
	const limit = result.truncatedBy === "lines" ? `${result.maxLines} lines` : formatSize(result.maxBytes);
	return `[Output cut at ${limit}: ${shown} shown. ${hint}]`;
}
