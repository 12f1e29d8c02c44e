import type { GantrySettings } from "./types.js";

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mergeValues(base: unknown, over: unknown): unknown {
	if (Array.isArray(base) && Array.isArray(over)) return [...base, ...over];
	if (isObject(base) && isObject(over)) {
		const merged: Record<string, unknown> = { ...base };
		for (const [key, value] of Object.entries(over))
			merged[key] = key in merged ? mergeValues(merged[key], value) : value;
		return merged;
	}
	return over;
}

/**
 * Merges settings files in order (later files win): lists are concatenated (every file's rules and hooks
 * hold), objects merged key by key, single values replaced.
 */
export function mergeSettings(files: readonly GantrySettings[]): GantrySettings {
	let merged: GantrySettings = {};
	for (const file of files) merged = mergeValues(merged, file) as GantrySettings;
	return merged;
}
