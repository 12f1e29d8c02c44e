import { type StreamOptions, stream } from "@gantry/ai";
import { usageError } from "./errors.js";

/** How hard a reasoning model thinks (`StreamOptions.reasoning`). */
export type ReasoningLevel = NonNullable<StreamOptions["reasoning"]>;

/** The reasoning levels `--thinking` takes. */
export const THINKING_LEVELS: readonly ReasoningLevel[] = ["minimal", "low", "medium", "high"];

/** What the command line sets on every model request. */
export interface StreamSettings {
	/** `--timeout` / `GANTRY_IDLE_TIMEOUT_MS`: end a request when the server sends nothing for this long. */
	idleTimeoutMs?: number;
	/** `--thinking`: how hard a reasoning model thinks. */
	reasoning?: ReasoningLevel;
}

/** `--timeout` as milliseconds: `90` or `90s` (seconds), `500ms`, `2m`. Throws a usage error otherwise. */
export function parseTimeout(value: string, source = "--timeout"): number {
	const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
	const amount = match ? Number(match[1]) : Number.NaN;
	const factor = match?.[2] === "ms" ? 1 : match?.[2] === "m" ? 60_000 : 1000;
	const ms = Math.round(amount * factor);
	if (!Number.isFinite(ms) || ms <= 0) {
		throw usageError(`${source} must be a positive duration such as 90 (seconds), 90s, 500ms or 2m (got "${value}")`);
	}
	return ms;
}

/** The settings from `--timeout`, `--thinking` and `GANTRY_IDLE_TIMEOUT_MS` (the option wins). */
export function streamSettings(
	options: { timeout?: string; thinking?: string },
	env: NodeJS.ProcessEnv,
): StreamSettings {
	const settings: StreamSettings = {};
	const variable = env.GANTRY_IDLE_TIMEOUT_MS;
	if (options.timeout !== undefined) settings.idleTimeoutMs = parseTimeout(options.timeout);
	else if (variable !== undefined && variable !== "") {
		if (!/^\d+$/.test(variable.trim()) || Number(variable) <= 0) {
			throw usageError(`GANTRY_IDLE_TIMEOUT_MS must be a positive number of milliseconds (got "${variable}")`);
		}
		settings.idleTimeoutMs = Number(variable);
	}
	if (options.thinking !== undefined) {
		if (!THINKING_LEVELS.includes(options.thinking as ReasoningLevel)) {
			throw usageError(`--thinking must be one of ${THINKING_LEVELS.join(", ")} (got "${options.thinking}")`);
		}
		settings.reasoning = options.thinking as ReasoningLevel;
	}
	return settings;
}

/** `stream` with the settings added to every request (the request's own options win). */
export function streamWithSettings(settings: StreamSettings): typeof stream {
	return (model, context, options?: StreamOptions) => stream(model, context, { ...settings, ...options });
}
