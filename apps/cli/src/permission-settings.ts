import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, posix } from "node:path";
import { CodingAgentError, createPermissionPolicy, type PermissionPolicyOptions } from "@gantry/coding-agent";
import type { Workspace } from "@gantry/tools";
import type { CliOptions } from "./args.js";
import { CliError } from "./errors.js";

/** The rules of one settings file, `{ "permissions": { "allow": [...], "deny": [...] } }`. */
interface SettingsRules {
	allow: string[];
	deny: string[];
}

/** Where a run's project settings are: the working folder, on the host of `workspace` when it is remote. */
export interface SettingsPlace {
	/** The working folder (on the workspace's host). */
	cwd: string;
	/** The session's workspace; a remote one's project files are read over it. Default: this machine. */
	workspace?: Workspace | undefined;
}

/** One settings file: the name errors give, and how its text is read (undefined when it is missing). */
interface SettingsSource {
	where: string;
	read(): Promise<string | undefined>;
}

function settingsError(where: string, why: string): CliError {
	return new CliError(
		"session_failed",
		`${where}: ${why}. Permission settings look like { "permissions": { "allow": ["bash(npm test:*)"], "deny": ["edit(.env)"] } }.`,
	);
}

function readRuleList(where: string, value: unknown, key: "allow" | "deny"): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value) || value.some((rule) => typeof rule !== "string")) {
		throw settingsError(where, `permissions.${key} must be a list of rule strings`);
	}
	return value as string[];
}

/** The rules of a settings file's text; throws `session_failed` naming `where` for any other shape. */
export function parseSettingsRules(where: string, text: string): SettingsRules {
	let settings: unknown;
	try {
		settings = JSON.parse(text);
	} catch (error) {
		throw settingsError(where, `is not valid JSON (${(error as Error).message})`);
	}
	if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
		throw settingsError(where, "must hold a JSON object");
	}
	const permissions = (settings as { permissions?: unknown }).permissions;
	if (permissions === undefined) return { allow: [], deny: [] };
	if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
		throw settingsError(where, "permissions must be an object with allow and deny lists");
	}
	const { allow, deny } = permissions as { allow?: unknown; deny?: unknown };
	return { allow: readRuleList(where, allow, "allow"), deny: readRuleList(where, deny, "deny") };
}

async function readSource(source: SettingsSource): Promise<SettingsRules> {
	let text: string | undefined;
	try {
		text = await source.read();
	} catch (error) {
		throw settingsError(source.where, `cannot be read (${(error as Error).message})`);
	}
	return text === undefined ? { allow: [], deny: [] } : parseSettingsRules(source.where, text);
}

function isMissing(error: unknown): boolean {
	return (error as NodeJS.ErrnoException).code === "ENOENT";
}

function localSource(path: string): SettingsSource {
	return {
		where: path,
		read: () => readFile(path, "utf8").catch((error) => (isMissing(error) ? undefined : Promise.reject(error))),
	};
}

function workspaceSource(workspace: Workspace, path: string): SettingsSource {
	return {
		where: `${workspace.label}:${path}`,
		read: async () => {
			try {
				return Buffer.from(await workspace.fs.readFile(path)).toString("utf8");
			} catch (error) {
				if (isMissing(error)) return undefined;
				throw error;
			}
		},
	};
}

/** Reads one settings file on this machine; a missing file has no rules. Throws `session_failed` naming the file. */
export function readSettingsRules(path: string): Promise<SettingsRules> {
	return readSource(localSource(path));
}

/** The project's shared settings file: `.gantry/settings.json` in the working folder (usually committed). */
export function projectSettingsPath(cwd: string): string {
	return join(cwd, ".gantry", "settings.json");
}

/**
 * The project's personal settings file: `.gantry/settings.local.json` in the working folder, kept out of
 * git (`.gantry/.gitignore`). "Always" answers are saved here.
 */
export function localSettingsPath(cwd: string): string {
	return join(cwd, ".gantry", "settings.local.json");
}

/**
 * The settings files of a run, in reading order. `~/.gantry/settings.json` is always this machine's; the
 * project's two files are read over a remote workspace (named `user@host:port:/path` in errors), so a
 * local file at the remote path is never read.
 */
function settingsSources(place: SettingsPlace, home = homedir()): SettingsSource[] {
	const { cwd, workspace } = place;
	const user = localSource(join(home, ".gantry", "settings.json"));
	if (workspace === undefined || workspace.isLocal) {
		return [user, localSource(projectSettingsPath(cwd)), localSource(localSettingsPath(cwd))];
	}
	const project = (name: string) => workspaceSource(workspace, posix.join(cwd, ".gantry", name));
	return [user, project("settings.json"), project("settings.local.json")];
}

/**
 * The permission policy options of a run: rules from `~/.gantry/settings.json`, `.gantry/settings.json`,
 * `.gantry/settings.local.json` and `--allow`/`--deny` (all added together; deny beats allow wherever it
 * comes from), plus `extra` (the demo's rules), in `yes` mode with `--yes`. Over `--ssh` the project's
 * files are read on the remote host. Every rule is checked here, so a malformed one stops the run with
 * its file named.
 */
export async function permissionOptionsFor(
	options: CliOptions,
	place: SettingsPlace,
	extra: Omit<PermissionPolicyOptions, "mode"> = {},
): Promise<PermissionPolicyOptions> {
	const allow: string[] = [...(extra.permissions?.allow ?? [])];
	const deny: string[] = [...(extra.permissions?.deny ?? [])];
	const sources: { where: string; rules: SettingsRules }[] = [];
	for (const source of settingsSources(place)) sources.push({ where: source.where, rules: await readSource(source) });
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
