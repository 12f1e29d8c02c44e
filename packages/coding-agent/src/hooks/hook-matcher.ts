import { errorText } from "@gantry/ai";
import { CodingAgentError } from "../errors.js";

/** Whether a matcher group applies to a call (or a session start or end), given the names it goes by. */
export type HookMatcherTest = (names: readonly string[]) => boolean;

/** Names and `|`-lists of names (`Bash`, `Edit|Write`): compared whole, as Claude Code does. */
const PLAIN_NAMES = /^[\w|-]+$/;

/**
 * Turns a settings `matcher` into a test, as Claude Code reads it: absent, empty or `*` matches
 * everything; names and `|`-lists of names match those names exactly (case-sensitive); anything else is a
 * regular expression searched in the name (`mcp__github__.*`, `Notebook.*`). Throws `invalid_option`
 * naming `key` for a regular expression that does not compile.
 */
export function compileHookMatcher(matcher: string | undefined, key: string): HookMatcherTest {
	if (matcher === undefined || matcher === "" || matcher === "*") return () => true;
	if (PLAIN_NAMES.test(matcher)) {
		const names = new Set(matcher.split("|").filter((name) => name !== ""));
		return (candidates) => candidates.some((name) => names.has(name));
	}
	let pattern: RegExp;
	try {
		pattern = new RegExp(matcher);
	} catch (error) {
		throw new CodingAgentError(
			"invalid_option",
			`${key}: ${JSON.stringify(matcher)} is not a valid regular expression (${errorText(error)}). Write a tool name, names joined by | (Edit|Write), or a regular expression such as mcp__github__.*`,
			{ cause: error },
		);
	}
	return (candidates) => candidates.some((name) => pattern.test(name));
}
