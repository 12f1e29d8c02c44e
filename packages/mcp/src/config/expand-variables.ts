import { GantryMcpError } from "../errors.js";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Which variables may expand. Undefined: every one (the user's own file). Otherwise only the names in
 * `allowed`; another name takes its `:-fallback`, or is an error whose message ends with `refusal(name)`.
 */
export interface ExpansionRules {
	allowed: ReadonlySet<string>;
	/** Why `name` may not expand here and how to fix it (a clause after "uses ${NAME}, "). */
	refusal(name: string): string;
}

/**
 * Replaces `${NAME}` (and `${NAME:-fallback}`) in `text` from `env`. Throws a `GantryMcpError` naming
 * the variable and `where` when a variable without a fallback is unset, or is not one `rules` allow.
 */
export function expandVariables(
	text: string,
	env: Readonly<Record<string, string | undefined>>,
	where: string,
	rules?: ExpansionRules,
): string {
	return text.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
		if (rules !== undefined && !rules.allowed.has(name)) {
			if (fallback !== undefined) return fallback;
			throw new GantryMcpError("invalid_config", `${where} uses \${${name}}, ${rules.refusal(name)}`);
		}
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
export function expandDeep<T>(
	value: T,
	env: Readonly<Record<string, string | undefined>>,
	where: string,
	rules?: ExpansionRules,
): T {
	if (typeof value === "string") return expandVariables(value, env, where, rules) as T;
	if (Array.isArray(value)) return value.map((item) => expandDeep(item, env, where, rules)) as T;
	if (typeof value === "object" && value !== null) {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) out[key] = expandDeep(item, env, where, rules);
		return out as T;
	}
	return value;
}
