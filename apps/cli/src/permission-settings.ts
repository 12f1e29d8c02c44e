import { join } from "node:path";
import {
	CodingAgentError,
	checkPermissionRule,
	type GantrySettings,
	type LoadedSettings,
	loadSettings,
	type PermissionMode,
	type PermissionOrigins,
	type PermissionPolicyOptions,
	permissionModeOf,
	type RuleSource,
} from "@gantry/coding-agent";
import type { Workspace } from "@gantry/tools";
import type { CliOptions } from "./args.js";
import { CliError, usageError } from "./errors.js";

/** Where a run's project settings are: the working folder, on the host of `workspace` when it is remote. */
export interface SettingsPlace {
	/** The working folder (on the workspace's host). */
	cwd: string;
	/** The session's workspace; a remote one's project files are read over it. Default: this machine. */
	workspace?: Workspace | undefined;
}

/** Rules a run adds to the settings files' (the demo allows its edit and its test command). */
export interface ExtraRules {
	allow?: string[];
	deny?: string[];
}

/** A run's permissions: the settings the session applies, its mode, and where each came from. */
export interface RunPermissions {
	/** The settings files merged (`loadSettings`), with `--allow`/`--deny`, the extra rules and `--sandbox` added. */
	settings: GantrySettings;
	/** `--permission-mode`, else `default` with `--yes` taken as `bypassPermissions`, else the files' `defaultMode`. */
	permissionMode: PermissionMode;
	/** Where the rules and the mode came from, for `gantry tools`. */
	origins: PermissionOrigins & { ruleSources: RuleSource[] };
	/** What `loadSettings` read: the files, whether the folder is trusted, what was ignored. */
	loaded: LoadedSettings;
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

/** The mode the command line asks for: `--permission-mode`, or `--yes` (= `bypassPermissions`); undefined for neither. */
export function commandLineMode(options: CliOptions): { mode: PermissionMode; source: string } | undefined {
	let named: PermissionMode | undefined;
	if (options.permissionMode !== undefined) {
		try {
			named = permissionModeOf(options.permissionMode as PermissionMode, "--permission-mode");
		} catch (error) {
			throw usageError((error as Error).message);
		}
	}
	if (options.yes && named !== undefined && named !== "bypassPermissions") {
		throw usageError(
			`--yes runs everything no deny or ask rule covers (bypassPermissions); it cannot be combined with --permission-mode ${named}`,
		);
	}
	if (named !== undefined) return { mode: named, source: "--permission-mode" };
	return options.yes ? { mode: "bypassPermissions", source: "--yes" } : undefined;
}

/**
 * The permissions of a run, read the way an SDK session reads them (`loadSettings`): the rules of
 * `~/.gantry/settings.json`, `.gantry/settings.json` and `.gantry/settings.local.json` (the project's only
 * as far as the folder is trusted), then `--allow`/`--deny` and `extra`; the mode from the command line, else
 * the files. Over `--ssh` the project's files are read on the remote host. Every rule is checked here: a
 * malformed file or rule stops the run with its file named (`session_failed`); a bad `--allow`/`--deny`
 * rule or mode is a usage error.
 */
export async function readRunPermissions(
	options: CliOptions,
	place: SettingsPlace,
	extra: ExtraRules = {},
	home?: string,
): Promise<RunPermissions> {
	const cli = commandLineMode(options);
	let loaded: LoadedSettings;
	try {
		loaded = await loadSettings({
			cwd: place.cwd,
			...(home === undefined ? {} : { home }),
			...(place.workspace === undefined ? {} : { workspace: place.workspace }),
		});
	} catch (error) {
		if (error instanceof CodingAgentError) throw new CliError("session_failed", error.message, { cause: error });
		throw error;
	}
	const added: RuleSource[] = [];
	for (const [list, rules, where] of [
		["allow", options.allow, "--allow"],
		["deny", options.deny, "--deny"],
		["allow", extra.allow ?? [], "the demo"],
		["deny", extra.deny ?? [], "the demo"],
	] as const) {
		for (const rule of rules) {
			try {
				loaded.ignored.push(...checkPermissionRule(rule, where, list));
			} catch (error) {
				if (error instanceof CodingAgentError) throw usageError(error.message);
				throw error;
			}
			added.push({ list, rule, file: where });
		}
	}
	const permissions = loaded.settings.permissions ?? {};
	const listOf = (list: "allow" | "deny") =>
		added.filter((source) => source.list === list).map((source) => source.rule);
	const settings: GantrySettings = {
		...loaded.settings,
		// --sandbox turns the OS sandbox on; the files' sandbox settings (domains, folders) still shape it.
		...(options.sandbox ? { sandbox: { ...loaded.settings.sandbox, enabled: true } } : {}),
		permissions: {
			...permissions,
			allow: [...(permissions.allow ?? []), ...listOf("allow")],
			deny: [...(permissions.deny ?? []), ...listOf("deny")],
		},
	};
	const permissionMode = cli?.mode ?? permissions.defaultMode ?? "default";
	const modeSource = cli?.source ?? loaded.defaultModeSource;
	return {
		settings,
		permissionMode,
		origins: {
			ruleSources: [...(loaded.ruleSources ?? []), ...added],
			...(modeSource === undefined ? {} : { modeSource }),
		},
		loaded,
	};
}

/** The run's rules as policy options (for listings), judged in `mode`. */
export function policyOptionsOf(run: RunPermissions, mode: PermissionPolicyOptions["mode"]): PermissionPolicyOptions {
	const { allow = [], deny = [], ask = [] } = run.settings.permissions ?? {};
	return { permissions: { allow, deny, ask }, ...(mode === undefined ? {} : { mode }) };
}
