import { addUsage, emptyUsage, type NestedToolCallRecord, type NestedToolCalls, type Usage } from "@gantry/ai";

/** Limits on what the records of one model-issued call keep. */
export const NESTED_CALL_LIMITS = {
	/** Records kept per model-issued call. */
	maxCalls: 256,
	/** Arguments bigger than this (JSON bytes) are kept as their size only. */
	maxArgumentBytes: 8 * 1024,
	/** Arguments kept across all records of one call. */
	maxTotalArgumentBytes: 32 * 1024,
	/** Error texts are cut to this many characters. */
	maxErrorChars: 500,
} as const;

/** The nested calls of one model-issued tool call (every depth), with their summed usage. */
export class NestedCallBook {
	readonly calls: NestedToolCallRecord[] = [];
	complete = true;
	usage: Usage | undefined;
	#argumentBytes = 0;

	/** Adds the record of a call that just started; undefined when the record limit dropped it. */
	start(id: string, name: string, args: unknown): NestedToolCallRecord | undefined {
		if (this.calls.length >= NESTED_CALL_LIMITS.maxCalls) {
			this.complete = false;
			return undefined;
		}
		const record: NestedToolCallRecord = { id, name, status: "unfinished" };
		const json = JSON.stringify(args ?? {}) ?? "";
		const bytes = Buffer.byteLength(json, "utf8");
		if (
			bytes <= NESTED_CALL_LIMITS.maxArgumentBytes &&
			this.#argumentBytes + bytes <= NESTED_CALL_LIMITS.maxTotalArgumentBytes &&
			typeof args === "object" &&
			args !== null &&
			!Array.isArray(args)
		) {
			record.arguments = args as Record<string, unknown>;
			this.#argumentBytes += bytes;
		} else {
			record.argumentsBytes = bytes;
			this.complete = false;
		}
		this.calls.push(record);
		return record;
	}

	/** Completes a record and adds the call's usage. */
	finish(
		record: NestedToolCallRecord | undefined,
		outcome: { isError: boolean; durationMs?: number; blocked?: true; errorText?: string; usage?: Usage },
	): void {
		if (outcome.usage) this.usage = addUsage(this.usage ?? emptyUsage(), outcome.usage);
		if (!record) return;
		record.status = outcome.isError ? "error" : "ok";
		if (outcome.durationMs !== undefined) record.durationMs = outcome.durationMs;
		if (outcome.blocked) record.blocked = true;
		if (outcome.isError && outcome.errorText) {
			const text = outcome.errorText;
			record.error =
				text.length > NESTED_CALL_LIMITS.maxErrorChars
					? `${text.slice(0, NESTED_CALL_LIMITS.maxErrorChars - 1)}…`
					: text;
		}
	}

	toNestedToolCalls(): NestedToolCalls {
		return { calls: this.calls.map((record) => ({ ...record })), complete: this.complete };
	}
}
