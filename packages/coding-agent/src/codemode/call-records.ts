import { NESTED_CALL_LIMITS } from "../session/nested-records.js";
import type { CodemodeCallRecord } from "./bridge.js";

/** A call record as `details.calls` keeps it: large arguments are kept as their size only. */
export interface CodemodeCallSummary extends Omit<CodemodeCallRecord, "arguments"> {
	/** The arguments, when they fit (see {@link NESTED_CALL_LIMITS}). */
	arguments?: unknown;
	/** The size in JSON bytes of arguments that were not kept. */
	argumentsBytes?: number;
}

function jsonBytes(value: unknown): number {
	try {
		return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
	} catch {
		return 0;
	}
}

function cutText(text: string, maxChars: number): string {
	return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/**
 * The records a result's `details` keeps, bounded like nested-call records: at most
 * `NESTED_CALL_LIMITS.maxCalls` of them (the rest counted in `omitted`), arguments over the per-call
 * or total byte limit kept as `argumentsBytes`, error texts cut.
 */
export function boundCallRecords(calls: readonly CodemodeCallRecord[]): {
	calls: CodemodeCallSummary[];
	omitted: number;
} {
	let argumentBytes = 0;
	const kept = calls.slice(0, NESTED_CALL_LIMITS.maxCalls).map((call) => {
		const { arguments: args, ...rest } = call;
		const summary: CodemodeCallSummary = { ...rest };
		if (summary.error !== undefined) summary.error = cutText(summary.error, NESTED_CALL_LIMITS.maxErrorChars);
		const bytes = jsonBytes(args);
		if (
			bytes <= NESTED_CALL_LIMITS.maxArgumentBytes &&
			argumentBytes + bytes <= NESTED_CALL_LIMITS.maxTotalArgumentBytes
		) {
			summary.arguments = args;
			argumentBytes += bytes;
		} else {
			summary.argumentsBytes = bytes;
		}
		return summary;
	});
	return { calls: kept, omitted: calls.length - kept.length };
}
