import { GantryMcpError } from "../errors.js";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` (and `${NAME:-fallback}`) in `text` from `env`. Throws a `GantryMcpError` naming
 * the variable and `where` when a variable without a fallback is unset.
 */
export function expandVariables(
	text: string,
	env: Readonly<Record<string, string | undefined>>,
	where: string,
): string {
	return text.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
		const value = env[name];
		if (value !== undefined) return value;
		if (fallback !== undefined) return fallback;
		throw new GantryMcpError(
			"invalid_config",
			`${where} uses \${${name}}, which is not set. Set ${name} in the environment or write \${${name}:-default}.`,
		);
	});
}

/** Expands every string inside `value` (object values and array items, not keys). */
export function expandDeep<T>(value: T, env: Readonly<Record<string, string | undefined>>, where: string): T {
	if (typeof value === "string") return expandVariables(value, env, where) as T;
	if (Array.isArray(value)) return value.map((item) => expandDeep(item, env, where)) as T;
	if (typeof value === "object" && value !== null) {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) out[key] = expandDeep(item, env, where);
		return out as T;
	}
	return value;
}
