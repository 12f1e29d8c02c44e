import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The real recorded provider streams, committed unchanged in `test/fixtures/recorded/` (their sources in
 * `SOURCES.md` there, their licences in `LICENSES.md`).
 */
export const FIXTURES = resolve(import.meta.dirname, "../fixtures/recorded");

/** The format a fixture is served in. */
export type RecordedFormat = "anthropic" | "openai" | "responses";

/**
 * The response body of a recording: `*.sse` files byte for byte; `*.chunks.txt` (one JSON event per
 * line) framed the way the API sends them: `event:` + `data:` for Anthropic and the Responses API,
 * `data:` lines and a final `data: [DONE]` for chat completions. `segment` picks one response of a
 * file that holds several (a recorded Responses tool loop, split at each `response.created`).
 */
export function recordedBody(file: string, format: RecordedFormat, segment?: number): string {
	const text = readFileSync(join(FIXTURES, file), "utf8");
	if (file.endsWith(".sse")) return text;
	let lines = text.split("\n").filter((line) => line.trim() !== "");
	if (segment !== undefined) {
		const starts = lines.flatMap((line, index) => (JSON.parse(line).type === "response.created" ? [index] : []));
		lines = lines.slice(starts[segment], starts[segment + 1]);
	}
	if (format === "openai") return `${lines.map((line) => `data: ${line}\n\n`).join("")}data: [DONE]\n\n`;
	return lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join("");
}

/** What the independent reference accumulator derived from a recording (`expected.json`). */
export type RecordedExpectation = {
	file: string;
	api?: string;
	segment?: number | null;
	expected: {
		text: string;
		thinking?: { thinking: string; signature: string; redacted: boolean }[];
		thinkingParts?: string[];
		reasoningItems?: { id: string; encryptedContent: string | null; summary: string[] }[];
		toolCalls: { id?: string; callId?: string; name: string; arguments: Record<string, unknown> }[];
		usage: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning?: number } | null;
		stopReason: string;
		errorMessage: string | null;
	};
};

/** The entries of `expected.json` (`folder` = `openai-responses` for the Responses streams). */
export function recordedExpectations(folder = ""): Record<string, RecordedExpectation> {
	return JSON.parse(readFileSync(join(FIXTURES, folder, "expected.json"), "utf8"));
}
