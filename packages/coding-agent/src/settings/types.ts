import type { SandboxSettings } from "@gantry/sandbox";

/**
 * How the session decides calls no rule settles, as Claude Code's modes: `default` asks; `acceptEdits` runs
 * edit/write/apply_patch inside the project without asking; `plan` runs only read-only tools; `bypassPermissions`
 * runs everything but what deny and ask rules cover; `dontAsk` denies what no allow rule covers. Deny rules
 * hold in every mode.
 */
export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk";

/** The events a settings file's command hooks can be attached to (Claude Code's names). */
export type HookEventName =
	| "PreToolUse"
	| "PostToolUse"
	| "PostToolUseFailure"
	| "UserPromptSubmit"
	| "SessionStart"
	| "SessionEnd"
	| "Stop";

/** One command hook: run through the shell in the project folder, Claude Code's JSON on stdin. */
export interface CommandHook {
	type: "command";
	command: string;
	/** Seconds before the hook is killed (its whole process tree). Default 60. */
	timeout?: number;
}

/** Hooks that run when `matcher` (a regular expression over the tool name; empty or `*` = all) matches. */
export interface HookMatcher {
	matcher?: string;
	hooks: CommandHook[];
}

/** The hooks of a settings file, by event. */
export type HooksSettings = Partial<Record<HookEventName, HookMatcher[]>>;

/** Claude Code's settings.json, the parts Gantry reads. */
export interface GantrySettings {
	permissions?: { allow?: string[]; deny?: string[]; ask?: string[]; defaultMode?: PermissionMode };
	hooks?: HooksSettings;
	sandbox?: SandboxSettings;
	/** Variables added to the tools' environment (bash, powershell, hooks). */
	env?: Record<string, string>;
	/** The CLI's default model for a folder or a user. */
	model?: string;
	/** The CLI's default provider for a folder or a user. */
	provider?: string;
}

/** Where a settings file came from. */
export type SettingsScope = "user" | "project" | "local";

/** The merged settings of a folder and what went into them (`loadSettings`). */
export interface LoadedSettings {
	settings: GantrySettings;
	files: { path: string; scope: SettingsScope }[];
	/** Whether the folder is trusted (`~/.gantry/trust.json`); an untrusted folder's settings only add deny rules. */
	trusted: boolean;
	/** What an untrusted project asked for and did not get, and Claude Code keys Gantry does not use. */
	ignored: string[];
	/** Gantry's addition: the part of `ignored` that waits for the folder to be trusted (empty once it is). */
	withheld?: string[];
	/**
	 * Gantry's addition: which file each permission rule came from, in merge order (rules an untrusted
	 * project asked for and did not get are not listed), so a listing can name the file that decides.
	 */
	ruleSources?: RuleSource[];
	/** Gantry's addition: the file the `permissions.defaultMode` in force came from. */
	defaultModeSource?: string;
}

/** One permission rule and the settings file (or option) it came from. */
export interface RuleSource {
	list: "allow" | "deny" | "ask";
	rule: string;
	/** The file's path (`user@host:port:/path` for a remote project), or an option such as `--allow`. */
	file: string;
}
