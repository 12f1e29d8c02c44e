/** What a script's `// @options: {...}` first line may set. */
export interface ScriptOptions {
	/** `timeout_ms`: the script's time limit in milliseconds. */
	timeoutMs?: number;
	/** `max_output_tokens`: the script's output budget in tokens. */
	maxOutputTokens?: number;
}

/** The largest values an options line may ask for (beyond the session's own defaults). */
export interface ScriptOptionLimits {
	maxTimeoutMs: number;
	maxOutputTokens: number;
}

export type OptionsLineResult = { ok: true; options: ScriptOptions } | { ok: false; problem: string };

const OPTIONS_MARKER = /^\s*\/\/\s*@options\b/;
const KEYS = { timeout_ms: "timeoutMs", max_output_tokens: "maxOutputTokens" } as const;

/**
 * Reads the optional first line `// @options: {"timeout_ms": N, "max_output_tokens": N}`. Any other key,
 * a value that is not a positive integer (or is over `limits`), JSON that does not parse, or an options
 * line anywhere below the first line is a problem, returned as a sentence naming it. Never throws.
 */
export function parseOptionsLine(code: string, limits: ScriptOptionLimits): OptionsLineResult {
	const lines = code.split("\n");
	for (const [index, line] of lines.entries()) {
		if (index > 0 && OPTIONS_MARKER.test(line)) {
			return {
				ok: false,
				problem: `The // @options line must be the first line of the script; found one on line ${index + 1}.`,
			};
		}
	}
	const first = (lines[0] ?? "").replace(/\r$/, "");
	if (!OPTIONS_MARKER.test(first)) return { ok: true, options: {} };
	const [, json] = /^\s*\/\/\s*@options:(.*)$/.exec(first) ?? [];
	if (json === undefined)
		return { ok: false, problem: 'The options line must read // @options: {"timeout_ms": N, ...}.' };
	let parsed: unknown;
	try {
		parsed = JSON.parse(json);
	} catch (error) {
		return { ok: false, problem: `The // @options line is not valid JSON: ${(error as Error).message}` };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
		return { ok: false, problem: "The // @options line must hold a JSON object." };
	}
	const options: ScriptOptions = {};
	for (const [key, value] of Object.entries(parsed)) {
		if (!Object.hasOwn(KEYS, key)) {
			return {
				ok: false,
				problem: `Unknown option "${key}" in the // @options line (known: ${Object.keys(KEYS).join(", ")}).`,
			};
		}
		const field = KEYS[key as keyof typeof KEYS];
		const maximum = field === "timeoutMs" ? limits.maxTimeoutMs : limits.maxOutputTokens;
		if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > maximum) {
			return {
				ok: false,
				problem: `Option "${key}" must be an integer from 1 to ${maximum} (got ${JSON.stringify(value)}).`,
			};
		}
		options[field] = value;
	}
	return { ok: true, options };
}
