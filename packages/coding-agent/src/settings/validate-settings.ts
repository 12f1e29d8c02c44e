import { CodingAgentError } from "../errors.js";
import { parsePermissionRule, ruleToolPart } from "../permissions/permission-rules.js";
import { misspeltRuleTool } from "../permissions/rule-tool-check.js";
import { isInapplicableTool } from "../permissions/tool-names.js";
import { didYouMean } from "./did-you-mean.js";
import { SettingsFileCheck } from "./settings-checks.js";
import {
	CLAUDE_CODE_ONLY_KEYS,
	CLAUDE_CODE_ONLY_MODES,
	CLAUDE_CODE_ONLY_PERMISSION_KEYS,
	GANTRY_KEYS,
	PERMISSION_KEYS,
	PERMISSION_MODES,
} from "./settings-keys.js";
import type { GantrySettings, PermissionMode } from "./types.js";
import { checkHooks } from "./validate-hooks.js";
import { checkSandbox } from "./validate-sandbox.js";

/** One settings file, read and checked: what Gantry applies from it and what it leaves out. */
export interface CheckedSettings {
	settings: GantrySettings;
	/** Claude Code keys Gantry does not use, rules for tools it lacks, hooks it does not run. */
	ignored: string[];
}

/** What the checks need besides the file: tool names that are known besides the builtins (extensions'). */
export interface SettingsCheckOptions {
	knownTools?: readonly string[];
}

/**
 * Checks one rule as a settings file or `--allow`/`--deny` gives it: malformed, or naming a near miss of a
 * known tool (`Raed(**\/.env)`), throws `invalid_option` naming `where` and the rule; a rule for a Claude
 * Code tool Gantry lacks (`WebFetch(domain:…)`) is added to `ignored`, which is returned. `list` names the
 * rule's list in messages (`allow`, `deny`, `ask`); `options.knownTools` are extension tools' names.
 */
export function checkPermissionRule(
	rule: string,
	where: string,
	list: string,
	options: SettingsCheckOptions = {},
	ignored: string[] = [],
): string[] {
	try {
		parsePermissionRule(rule);
	} catch (error) {
		if (error instanceof CodingAgentError) throw new CodingAgentError("invalid_option", `${where}: ${error.message}`);
		throw error;
	}
	const meant = misspeltRuleTool(rule, options.knownTools);
	if (meant !== undefined) {
		const tool = ruleToolPart(rule);
		throw new CodingAgentError(
			"invalid_option",
			`${where}: the ${list} rule ${JSON.stringify(rule)} names no tool: ${JSON.stringify(tool)} is not a tool (did you mean ${meant}?). Fix the name${rule.includes("(") ? "" : `; a shell command is written Bash(${tool}:*)`}.`,
		);
	}
	const tool = ruleToolPart(rule);
	if (isInapplicableTool(tool)) {
		ignored.push(
			`${where}: ${list} rule ${rule} (${tool} is a Claude Code tool Gantry does not have; it applies to nothing)`,
		);
	}
	return ignored;
}

const SETTINGS_EXAMPLE = '{ "permissions": { "allow": ["Bash(npm test:*)"], "deny": ["Read(**/.env)"] } }';

/** The rule lists that belong inside `permissions`, when a file puts them at the top. */
const MISPLACED = new Set<string>(PERMISSION_KEYS);

/**
 * Checks a parsed settings file: every key is Gantry's or Claude Code's (a typo is an error with the key
 * meant), every rule parses and names no near miss of a tool, every value has its type. Throws
 * `CodingAgentError` `invalid_option` naming `where`.
 */
export function checkSettings(where: string, value: unknown, options: SettingsCheckOptions = {}): CheckedSettings {
	const check = new SettingsFileCheck(where);
	const top = check.object("", value, SETTINGS_EXAMPLE);
	for (const key of Object.keys(top)) {
		if (MISPLACED.has(key)) {
			throw check.error(JSON.stringify(key), `belongs inside "permissions": write { "permissions": { "${key}": … } }.`);
		}
	}
	const suggestions = [...GANTRY_KEYS, ...CLAUDE_CODE_ONLY_KEYS];
	const used = check.keys("", top, GANTRY_KEYS, CLAUDE_CODE_ONLY_KEYS, suggestions);
	const settings: GantrySettings = {};
	for (const key of used) {
		const entry = top[key];
		if (key === "permissions") settings.permissions = checkPermissions(check, entry, options);
		else if (key === "hooks") settings.hooks = checkHooks(check, entry);
		else if (key === "sandbox") settings.sandbox = checkSandbox(check, entry);
		else if (key === "env") settings.env = checkEnv(check, entry);
		else if (key === "model" || key === "provider") settings[key] = check.string(key, entry);
	}
	return { settings, ignored: check.ignored };
}

function checkPermissions(
	check: SettingsFileCheck,
	value: unknown,
	options: SettingsCheckOptions,
): NonNullable<GantrySettings["permissions"]> {
	const permissions = check.object("permissions", value, '{ "allow": ["Read"], "deny": ["Bash(rm:*)"] }');
	const used = check.keys("permissions", permissions, PERMISSION_KEYS, CLAUDE_CODE_ONLY_PERMISSION_KEYS);
	const result: NonNullable<GantrySettings["permissions"]> = {};
	for (const key of used) {
		if (key === "defaultMode") {
			const mode = checkMode(check, permissions.defaultMode);
			if (mode !== undefined) result.defaultMode = mode;
			continue;
		}
		const list = key as "allow" | "deny" | "ask";
		const rules = check.strings(
			`permissions.${list}`,
			permissions[list],
			'["Read", "Bash(npm test:*)"]',
			"rule strings",
		);
		for (const rule of rules) checkPermissionRule(rule, check.where, list, options, check.ignored);
		result[list] = rules;
	}
	return result;
}

function checkMode(check: SettingsFileCheck, value: unknown): PermissionMode | undefined {
	const mode = check.string("permissions.defaultMode", value);
	if ((PERMISSION_MODES as readonly string[]).includes(mode)) return mode as PermissionMode;
	if (CLAUDE_CODE_ONLY_MODES.includes(mode)) {
		check.ignore(`permissions.defaultMode "${mode}"`, "a Claude Code mode Gantry does not have; default applies");
		return undefined;
	}
	throw check.error(
		"permissions.defaultMode",
		`must be one of ${PERMISSION_MODES.join(", ")} (got ${JSON.stringify(mode)})${didYouMean(mode, PERMISSION_MODES)}.`,
	);
}

function checkEnv(check: SettingsFileCheck, value: unknown): Record<string, string> {
	const env = check.object("env", value, '{ "NODE_ENV": "development" }');
	const result: Record<string, string> = {};
	for (const [name, entry] of Object.entries(env)) {
		if (typeof entry !== "string") {
			throw check.error(`env.${name}`, `must be a string (got ${JSON.stringify(entry)}); write "${String(entry)}".`);
		}
		result[name] = entry;
	}
	return result;
}
