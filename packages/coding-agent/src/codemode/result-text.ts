import type { CodemodeCallRecord } from "./bridge.js";

const MAX_ERROR_LENGTH = 4_000;
const MAX_ARGUMENTS_LENGTH = 200;

/** `Script completed` and the output (or `(no output)`). */
export function completedText(output: string): string {
	return `Script completed\n${output === "" ? "(no output)" : output}`;
}

/**
 * `Script failed`, the partial output, the error, and the tool calls made before it (which are not
 * undone) — or a note that no tool ran.
 */
export function failedText(output: string, error: string, calls: readonly CodemodeCallRecord[]): string {
	const parts = ["Script failed"];
	if (output !== "") parts.push(output, "");
	parts.push(cut(error, MAX_ERROR_LENGTH));
	if (calls.length === 0) {
		parts.push("No tool calls were made.");
	} else {
		parts.push("Tool calls made before the failure (they are not undone):");
		calls.forEach((call, index) => {
			parts.push(
				`${index + 1}. ${call.name} ${cut(argumentsText(call.arguments), MAX_ARGUMENTS_LENGTH)}: ${statusText(call)}`,
			);
		});
	}
	return parts.join("\n");
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

function cut(text: string, maxLength: number): string {
	return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
