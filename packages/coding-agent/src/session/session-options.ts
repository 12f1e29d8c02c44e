import type { AgentMessage } from "@gantry/agent";
import type { Model, ReasoningLevel, stream } from "@gantry/ai";
import type { Extension, ExtensionUI, ToolDefinition } from "@gantry/extensions";
import type { AllToolsOptions, Workspace } from "@gantry/tools";
import type { CompactionOptions } from "../compaction/types.js";
import type { GantrySettings, PermissionMode } from "../settings/types.js";
import type { ContextFile } from "./context-files.js";

/** Options of `createAgentSession`. */
export interface AgentSessionOptions {
	/** The project folder the tools work in (on this machine). May be left out when `workspace` is given. */
	cwd?: string;
	/**
	 * The host the builtin tools act on: its files, processes and paths (`createLocalWorkspace(cwd)`, an SSH
	 * workspace, …). Default `createLocalWorkspace(cwd)`. When given, the session's cwd (the system prompt's,
	 * extensions' `ctx.cwd`) is `workspace.cwd`, the session's temp folder is made inside `workspace.tempDir`,
	 * and `dispose()` kills every process the workspace's `killAll` knows of, then closes the workspace when it
	 * can be closed (an `SshWorkspace` ends its connection) unless `keepWorkspaceOpen` is set.
	 */
	workspace?: Workspace;
	/**
	 * Keep `workspace` open after `dispose()`, for a workspace that outlives the session (shared by several
	 * sessions, or closed by its owner). Default false: the session closes a workspace that has `close()`.
	 */
	keepWorkspaceOpen?: boolean;
	model: Model;
	/** Overrides the provider key from the environment. */
	apiKey?: string;
	/**
	 * Allowlist: exact names or `*` patterns. Tools it does not match are never registered; tools it
	 * names exactly are activated when they register (e.g. `["*", "codemode"]`). Default: everything.
	 */
	tools?: string[];
	/** Denylist (exact names or `*` patterns); beats the allowlist. */
	excludeTools?: string[];
	/** `"builtin"`: register none of the builtin tools; `"all"`: no builtin and no session tool. */
	noTools?: "all" | "builtin";
	/** Tools from the SDK user; they replace same-named builtin and extension tools. */
	customTools?: ToolDefinition[];
	/** Extension functions or module paths (`.ts`/`.js`, relative to `cwd`), in load order. */
	extensions?: (Extension | string)[];
	/** How a batch of tool calls runs. Default `"parallel"`. */
	toolExecution?: "parallel" | "sequential";
	/** A JSONL transcript; when the file exists the session resumes it. Default: none (in memory). */
	sessionFile?: string;
	images?: {
		/** Resize images in tool results to the model's limits (after the result hooks). Default true. */
		autoResize?: boolean;
	};
	codemode?: {
		/** `"on"` (default) or `"only"` (direct tools reachable only through scripts). */
		mode?: "on" | "only";
		/** Default 30,000. */
		timeoutMs?: number;
		/** Default 64 MiB. */
		memoryLimitBytes?: number;
		/** Default 10,000 (4 characters a token). */
		maxOutputTokens?: number;
	};
	/** How extensions and the permission policy talk to a person. Default: no UI. */
	ui?: ExtensionUI;
	/** Replaces the opening paragraph of the system prompt. */
	systemPrompt?: string;
	/** Appended to the system prompt. */
	appendSystemPrompt?: string;
	/**
	 * Project instructions joined to the system prompt, each under a heading naming its path. Default `true`:
	 * the session finds them itself with `findContextFiles` (`~/.gantry/AGENTS.md`, then `AGENTS.md` and
	 * `CLAUDE.md` from the repository root down to the working folder, read through the workspace, 32 KiB
	 * together). `false`: none. An array: exactly these files, in this order. `session.contextFiles` says
	 * which were used.
	 */
	contextFiles?: boolean | readonly ContextFile[];
	/**
	 * The home folder of the user's `~/.gantry/AGENTS.md` (read on this machine). Default: the local
	 * workspace's home, else `os.homedir()`.
	 */
	home?: string;
	/** Options of the builtin tools (grep engine, bash env, …). `cwd`, `tempDir` and `model` are set by the session. */
	toolOptions?: Omit<AllToolsOptions, "tempDir" | "model">;
	/** Most output tokens per model request. Default: the model's `maxTokens`. */
	maxTokens?: number;
	/** Sampling temperature, where the provider takes one. Default: the provider's. */
	temperature?: number;
	/**
	 * How hard a reasoning model thinks (`StreamOptions.reasoning` of `@gantry/ai`). Default: the
	 * provider's.
	 */
	reasoning?: ReasoningLevel;
	/** No byte from the model's server for this long ends the request with an error. Default 120 000. */
	idleTimeoutMs?: number;
	/**
	 * The session's prompt-cache key, sent with every request (`StreamOptions.sessionId`). Default: derived
	 * from `sessionFile` (so a resumed session keeps its key), else a random id.
	 */
	sessionId?: string;
	/** Replaces `stream` from `@gantry/ai` (custom transports, tests). */
	streamFn?: typeof stream;
	/** Messages to start with when no transcript is resumed. */
	initialMessages?: AgentMessage[];
	/**
	 * Settings as `loadSettings` returns them (Claude Code's settings.json shape): the session applies their
	 * permission rules, hooks, sandbox, environment and default mode itself.
	 */
	settings?: GantrySettings;
	/**
	 * How calls no rule settles are decided (Claude Code's modes; see `PermissionMode`). Default
	 * `settings.permissions.defaultMode`, else `"default"`. Deny and ask rules hold in every mode. Giving it
	 * (or `settings`) installs the session's permission policy; `setPermissionMode` changes it later. An
	 * unknown mode throws `invalid_option`.
	 */
	permissionMode?: PermissionMode;
	/**
	 * Called when the person answers "always" to a permission question, with the allow rules the answer
	 * added for the rest of the session (see `PermissionPolicyOptions.onAlwaysAllow`). Default: none.
	 */
	onAlwaysAllow?: (rules: string[]) => void | Promise<void>;
	/** Words that say how long an "always" answer holds, e.g. `"in this project"`. Default: none. */
	alwaysAllowScope?: string;
	/** A checkpoint of the workspace before each prompt, for `rewind`. Default true. */
	checkpoints?: boolean;
	/**
	 * Compaction of long conversations: automatic at 80 % of the model's context window (old tool results
	 * trimmed first, then a summary), and `session.compact()` on demand. See `CompactionOptions`.
	 */
	compaction?: CompactionOptions;
}
