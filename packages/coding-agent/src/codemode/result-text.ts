import type { CodemodeCallRecord } from "./bridge.js";

const MAX_ERROR_LENGTH = 4_000;
const MAX_ARGUMENTS_LENGTH = 200;

/** `Script completed` and the output (or `(no output)`). */
export function completedText(output: string): string {
	return `Script completed\n${output === "" ? "(no output)" : output}`;
}

/** Calls listed one per line in a failure text: the first ones and the last ones. */
const LISTED_FIRST_CALLS = 20;
const LISTED_LAST_CALLS = 10;

/**
 * `Script failed`, the partial output, the error, and the tool calls made before it (which are not
 * undone) — or a note that no tool ran. At most the first 20 and the last 10 calls are listed (`… and N
 * more` between), and the whole text stays within `maxChars`: the output gives up its middle first.
 */
export function failedText(
	output: string,
	error: string,
	calls: readonly CodemodeCallRecord[],
	maxChars = Number.POSITIVE_INFINITY,
): string {
	const tail = [cut(error, MAX_ERROR_LENGTH)];
	if (calls.length === 0) {
		tail.push("No tool calls were made.");
	} else {
		const failed = calls.filter((call) => call.status === "error").length;
		const counts = calls.length > LISTED_FIRST_CALLS + LISTED_LAST_CALLS ? ` (${calls.length}, ${failed} failed)` : "";
		tail.push(`Tool calls made before the failure${counts} (they are not undone):`);
		const line = (call: CodemodeCallRecord, index: number) =>
			`${index + 1}. ${call.name} ${cut(argumentsText(call.arguments), MAX_ARGUMENTS_LENGTH)}: ${statusText(call)}`;
		if (calls.length <= LISTED_FIRST_CALLS + LISTED_LAST_CALLS) {
			tail.push(...calls.map(line));
		} else {
			const lastFrom = calls.length - LISTED_LAST_CALLS;
			tail.push(...calls.slice(0, LISTED_FIRST_CALLS).map(line));
			tail.push(`… and ${lastFrom - LISTED_FIRST_CALLS} more`);
			tail.push(...calls.slice(lastFrom).map((call, offset) => line(call, lastFrom + offset)));
		}
	}
	const rest = tail.join("\n");
	if (output === "") return cut(`Script failed\n${rest}`, maxChars);
	const room = maxChars - rest.length - "Script failed\n\n\n".length;
	return cut(`Script failed\n${cutMiddle(output, Math.max(0, room))}\n\n${rest}`, maxChars);
}

/** The failure of a script that never started (empty code, bad options line). */
export function notStartedText(problem: string): string {
	return `Script failed\n${problem}\nThe script did not run and no tool was called.`;
}

function statusText(call: CodemodeCallRecord): string {
	switch (call.status) {
		case "ok":
			return "ok";
		case "error":
			return `failed: ${cut((call.error ?? "").replace(/\s+/g, " "), MAX_ARGUMENTS_LENGTH)}`;
		default:
			return "still running when the script stopped (aborted; it may have had effects)";
	}
}

function argumentsText(value: unknown): string {
	try {
		return JSON.stringify(value) ?? "";
	} catch {
		return "(arguments)";
	}
}

/** Keeps the head and tail of `text` around a notice when it is longer than `maxLength`. */
function cutMiddle(text: string, maxLength: number): string {
	if (text.length <= maxLength) return text;
	const notice = `\n[... ${text.length - maxLength} characters of output omitted to fit the failure report ...]\n`;
	const keep = Math.max(0, maxLength - notice.length);
	const head = Math.ceil(keep / 2);
	return `${text.slice(0, head)}${notice}${text.slice(text.length - (keep - head))}`;
}

function cut(text: string, maxLength: number): string {
	return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
