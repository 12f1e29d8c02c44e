import type { SettingsFileCheck } from "./settings-checks.js";
import {
	CLAUDE_CODE_ONLY_HOOK_COMMAND_KEYS,
	CLAUDE_CODE_ONLY_HOOK_EVENTS,
	CLAUDE_CODE_ONLY_HOOK_TYPES,
	HOOK_COMMAND_KEYS,
	HOOK_EVENTS,
} from "./settings-keys.js";
import type { CommandHook, HookEventName, HookMatcher, HooksSettings } from "./types.js";

const HOOKS_EXAMPLE =
	'{ "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }] }';

/**
 * Checks a settings file's `hooks` (Claude Code's shape): events Gantry runs are kept, Claude Code's others
 * and hook types other than `command` are noted as ignored, anything else is an error naming the key.
 */
export function checkHooks(check: SettingsFileCheck, value: unknown): HooksSettings {
	const hooks = check.object("hooks", value, HOOKS_EXAMPLE);
	const events = check.keys("hooks", hooks, HOOK_EVENTS, CLAUDE_CODE_ONLY_HOOK_EVENTS);
	const result: HooksSettings = {};
	for (const event of events as HookEventName[]) {
		const groups = hooks[event];
		if (!Array.isArray(groups))
			throw check.error(`hooks.${event}`, `must be a list of matcher groups, e.g. ${HOOKS_EXAMPLE}`);
		result[event] = groups.map((group, index) => checkGroup(check, `hooks.${event}[${index}]`, group));
	}
	return result;
}

function checkGroup(check: SettingsFileCheck, key: string, value: unknown): HookMatcher {
	const group = check.object(
		key,
		value,
		'{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }',
	);
	check.keys(key, group, ["matcher", "hooks"], []);
	const matcher = group.matcher === undefined ? undefined : check.string(`${key}.matcher`, group.matcher);
	if (!Array.isArray(group.hooks))
		throw check.error(`${key}.hooks`, 'must be a list of hooks, e.g. [{ "type": "command", "command": "./check.sh" }]');
	const commands: CommandHook[] = [];
	group.hooks.forEach((hook, index) => {
		const command = checkCommand(check, `${key}.hooks[${index}]`, hook);
		if (command !== undefined) commands.push(command);
	});
	return matcher === undefined ? { hooks: commands } : { matcher, hooks: commands };
}

function checkCommand(check: SettingsFileCheck, key: string, value: unknown): CommandHook | undefined {
	const hook = check.object(key, value, '{ "type": "command", "command": "./check.sh" }');
	const type = check.string(`${key}.type`, hook.type);
	if (CLAUDE_CODE_ONLY_HOOK_TYPES.includes(type)) {
		check.ignore(`${key}`, `a "${type}" hook, which Gantry does not run; only "command" hooks run`);
		return undefined;
	}
	if (type !== "command") throw check.error(`${key}.type`, `must be "command" (got ${JSON.stringify(type)}).`);
	check.keys(key, hook, HOOK_COMMAND_KEYS, CLAUDE_CODE_ONLY_HOOK_COMMAND_KEYS);
	const command = check.string(`${key}.command`, hook.command);
	if (command.trim() === "") throw check.error(`${key}.command`, "is empty: give the command to run.");
	if (hook.timeout === undefined) return { type: "command", command };
	if (typeof hook.timeout !== "number" || !(hook.timeout > 0) || !Number.isFinite(hook.timeout)) {
		throw check.error(`${key}.timeout`, `must be a number of seconds above 0 (got ${JSON.stringify(hook.timeout)}).`);
	}
	return { type: "command", command, timeout: hook.timeout };
}
