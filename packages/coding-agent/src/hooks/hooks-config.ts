import { CodingAgentError } from "../errors.js";
import type { HookEventName, HooksSettings } from "../settings/types.js";
import { compileHookMatcher, type HookMatcherTest } from "./hook-matcher.js";

/** Seconds a hook may run when its settings give no `timeout` (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** The events Gantry runs, in the order the docs list them. */
export const HOOK_EVENT_NAMES: readonly HookEventName[] = [
	"PreToolUse",
	"PostToolUse",
	"PostToolUseFailure",
	"UserPromptSubmit",
	"SessionStart",
	"SessionEnd",
	"Stop",
];

/** One command to run, with its timeout. */
export interface CompiledHook {
	command: string;
	timeoutSeconds: number;
}

/** A matcher group, ready to test. */
export interface CompiledHookGroup {
	matches: HookMatcherTest;
	hooks: CompiledHook[];
}

export type CompiledHooks = ReadonlyMap<HookEventName, readonly CompiledHookGroup[]>;

/**
 * Checks and compiles `settings.hooks` (Claude Code's shape). Throws `invalid_option` naming the key for an
 * unknown event, a matcher that is not a valid regular expression, a hook that is not `{ type: "command",
 * command }`, or a timeout that is not a positive number of seconds. Groups without hooks are left out.
 */
export function compileHooks(settings: HooksSettings | undefined): CompiledHooks {
	const compiled = new Map<HookEventName, CompiledHookGroup[]>();
	if (settings === undefined) return compiled;
	if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
		throw invalid(
			"settings.hooks",
			"must be an object of events, e.g. { PreToolUse: [{ matcher: 'Bash', hooks: [...] }] }",
		);
	}
	for (const [event, groups] of Object.entries(settings)) {
		const key = `settings.hooks.${event}`;
		if (!HOOK_EVENT_NAMES.includes(event as HookEventName)) {
			throw invalid(key, `is not an event Gantry runs hooks for (${HOOK_EVENT_NAMES.join(", ")})`);
		}
		if (groups === undefined) continue;
		if (!Array.isArray(groups)) throw invalid(key, "must be a list of { matcher, hooks } groups");
		const list: CompiledHookGroup[] = [];
		groups.forEach((group, index) => {
			const groupKey = `${key}[${index}]`;
			if (typeof group !== "object" || group === null || !Array.isArray(group.hooks)) {
				throw invalid(groupKey, 'must be { "matcher": "…", "hooks": [{ "type": "command", "command": "…" }] }');
			}
			if (group.matcher !== undefined && typeof group.matcher !== "string") {
				throw invalid(`${groupKey}.matcher`, "must be a string");
			}
			const hooks = group.hooks.map((hook, hookIndex) => compileHook(hook, `${groupKey}.hooks[${hookIndex}]`));
			if (hooks.length > 0) list.push({ matches: compileHookMatcher(group.matcher, `${groupKey}.matcher`), hooks });
		});
		if (list.length > 0) compiled.set(event as HookEventName, list);
	}
	return compiled;
}

function compileHook(hook: unknown, key: string): CompiledHook {
	const fields = (typeof hook === "object" && hook !== null ? hook : {}) as Record<string, unknown>;
	if (fields.type !== "command") throw invalid(`${key}.type`, 'must be "command" (the only kind of hook Gantry runs)');
	if (typeof fields.command !== "string" || fields.command.trim() === "") {
		throw invalid(`${key}.command`, "must be the command line to run");
	}
	const timeout = fields.timeout;
	if (timeout !== undefined && (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0)) {
		throw invalid(`${key}.timeout`, `must be a number of seconds above 0 (got ${JSON.stringify(timeout)})`);
	}
	return { command: fields.command, timeoutSeconds: timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS };
}

function invalid(key: string, problem: string): CodingAgentError {
	return new CodingAgentError("invalid_option", `createAgentSession: ${key} ${problem}.`);
}
