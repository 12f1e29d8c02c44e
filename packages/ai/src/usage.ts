import type { ModelCost, Usage } from "./types.js";

/** A `Usage` with every count at zero. */
export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Adds `delta` into `target` in place and returns it. */
export function addUsage(target: Usage, delta: Usage): Usage {
	target.input += delta.input;
	target.output += delta.output;
	target.cacheRead += delta.cacheRead;
	target.cacheWrite += delta.cacheWrite;
	target.totalTokens += delta.totalTokens;
	if (delta.reasoning !== undefined) target.reasoning = (target.reasoning ?? 0) + delta.reasoning;
	target.cost.input += delta.cost.input;
	target.cost.output += delta.cost.output;
	target.cost.cacheRead += delta.cost.cacheRead;
	target.cost.cacheWrite += delta.cost.cacheWrite;
	target.cost.total += delta.cost.total;
	return target;
}

/** Fills the fields of a partial usage; `totalTokens` defaults to the sum of the token counts. */
export function completeUsage(partial: Partial<Usage> = {}): Usage {
	const usage = emptyUsage();
	usage.input = partial.input ?? 0;
	usage.output = partial.output ?? 0;
	usage.cacheRead = partial.cacheRead ?? 0;
	usage.cacheWrite = partial.cacheWrite ?? 0;
	usage.totalTokens = partial.totalTokens ?? usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	if (partial.reasoning !== undefined) usage.reasoning = partial.reasoning;
	if (partial.cost) usage.cost = { ...usage.cost, ...partial.cost };
	return usage;
}

/**
 * Fills `usage.cost` (US dollars) from prices per million tokens, in place, and returns it. Without
 * prices the cost is left as it is.
 */
export function priceUsage(usage: Usage, cost: ModelCost | undefined): Usage {
	if (!cost) return usage;
	const dollars = (tokens: number, perMillion: number) => (tokens * perMillion) / 1_000_000;
	usage.cost.input = dollars(usage.input, cost.input);
	usage.cost.output = dollars(usage.output, cost.output);
	usage.cost.cacheRead = dollars(usage.cacheRead, cost.cacheRead);
	usage.cost.cacheWrite = dollars(usage.cacheWrite, cost.cacheWrite);
	usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
	return usage;
}
