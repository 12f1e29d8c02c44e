import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CodingAgentError, createPermissionPolicy, type PermissionPolicyOptions } from "@gantry/coding-agent";
import type { CliOptions } from "./args.js";
import { CliError } from "./errors.js";

/** The rules of one settings file, `{ "permissions": { "allow": [...], "deny": [...] } }`. */
interface SettingsRules {
	allow: string[];
	deny: string[];
}

function settingsError(path: string, why: string): CliError {
	return new CliError(
		"session_failed",
		`${path}: ${why}. Permission settings look like { "permissions": { "allow": ["bash(npm test:*)"], "deny": ["edit(.env)"] } }.`,
	);
}

function readRuleList(path: string, value: unknown, key: "allow" | "deny"): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value) || value.some((rule) => typeof rule !== "string")) {
		throw settingsError(path, `permissions.${key} must be a list of rule strings`);
	}
	return value as string[];
}

/** Reads one settings file; a missing file has no rules. Throws `session_failed` naming the file. */
export function readSettingsRules(path: string): SettingsRules {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { allow: [], deny: [] };
		throw settingsError(path, `cannot be read (${(error as Error).message})`);
	}
	let settings: unknown;
	try {
		settings = JSON.parse(text);
	} catch (error) {
		throw settingsError(path, `is not valid JSON (${(error as Error).message})`);
	}
	if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
		throw settingsError(path, "must hold a JSON object");
	}
	const permissions = (settings as { permissions?: unknown }).permissions;
	if (permissions === undefined) return { allow: [], deny: [] };
	if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
		throw settingsError(path, "permissions must be an object with allow and deny lists");
	}
	const { allow, deny } = permissions as { allow?: unknown; deny?: unknown };
	return { allow: readRuleList(path, allow, "allow"), deny: readRuleList(path, deny, "deny") };
}

/** The project's settings file: `.gantry/settings.json` in the working folder. */
export function projectSettingsPath(cwd: string): string {
	return join(cwd, ".gantry", "settings.json");
}

/** Where the settings files of a run are: the user's, then the project's. */
export function settingsPaths(cwd: string, home = homedir()): string[] {
	return [join(home, ".gantry", "settings.json"), projectSettingsPath(cwd)];
}

/**
 * The permission policy options of a run: rules from `~/.gantry/settings.json`, `.gantry/settings.json`
 * and `--allow`/`--deny` (all added together; deny beats allow wherever it comes from), plus `extra`
 * (the demo's rules), in `yes` mode with `--yes`. Every rule is checked here, so a malformed one stops
 * the run with its file named.
 */
export function permissionOptionsFor(
	options: CliOptions,
	cwd: string,
	extra: Omit<PermissionPolicyOptions, "mode"> = {},
): PermissionPolicyOptions {
	const allow: string[] = [...(extra.permissions?.allow ?? [])];
	const deny: string[] = [...(extra.permissions?.deny ?? [])];
	const sources: { where: string; rules: SettingsRules }[] = settingsPaths(cwd).map((path) => ({
		where: path,
		rules: readSettingsRules(path),
	}));
	sources.push({ where: "--allow/--deny", rules: { allow: options.allow, deny: options.deny } });
	for (const { where, rules } of sources) {
		checkRules(where, rules);
		allow.push(...rules.allow);
		deny.push(...rules.deny);
	}
	return { ...extra, permissions: { allow, deny }, mode: options.yes ? "yes" : "ask" };
}

function checkRules(where: string, rules: SettingsRules): void {
	try {
		createPermissionPolicy({ permissions: rules });
	} catch (error) {
		if (error instanceof CodingAgentError) {
			throw new CliError(where.startsWith("--") ? "usage" : "session_failed", `${where}: ${error.message}`);
		}
		throw error;
	}
}
