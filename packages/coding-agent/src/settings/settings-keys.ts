import type { HookEventName, PermissionMode } from "./types.js";

/** The top-level keys of a settings file that Gantry reads. */
export const GANTRY_KEYS = ["permissions", "hooks", "sandbox", "env", "model", "provider"] as const;

/**
 * Top-level keys of Claude Code's settings.json that Gantry does not use (from its published settings
 * reference and JSON schema). A file that has them still loads; `loadSettings` lists them in `ignored`, so a
 * copied `.claude/settings.json` works and says what it left out.
 */
export const CLAUDE_CODE_ONLY_KEYS: readonly string[] = [
	"$schema",
	"advisorModel",
	"agent",
	"agentPushNotifEnabled",
	"allowAllClaudeAiMcps",
	"allowedChannelPlugins",
	"allowedHttpHookUrls",
	"allowedMcpServers",
	"allowManagedHooksOnly",
	"allowManagedMcpServersOnly",
	"allowManagedPermissionRulesOnly",
	"alwaysThinkingEnabled",
	"apiKeyHelper",
	"attribution",
	"autoCompactEnabled",
	"autoConnectIde",
	"autoInstallIdeExtension",
	"autoMemoryDirectory",
	"autoMemoryEnabled",
	"autoMode",
	"autoScrollEnabled",
	"autoUpdates",
	"autoUpdatesChannel",
	"availableModels",
	"awaySummaryEnabled",
	"awsAuthRefresh",
	"awsCredentialExport",
	"axScreenReader",
	"blockedMarketplaces",
	"channelsEnabled",
	"claudeMd",
	"claudeMdExcludes",
	"cleanupPeriodDays",
	"companyAnnouncements",
	"defaultShell",
	"deniedMcpServers",
	"disableAgentView",
	"disableAllHooks",
	"disableArtifact",
	"disableAutoMode",
	"disableBundledSkills",
	"disableClaudeAiConnectors",
	"disableDeepLinkRegistration",
	"disabledMcpjsonServers",
	"disableRemoteControl",
	"disableSkillShellExecution",
	"disableWorkflows",
	"editorMode",
	"effortLevel",
	"enableAllProjectMcpServers",
	"enabledMcpjsonServers",
	"enabledPlugins",
	"enforceAvailableModels",
	"extraKnownMarketplaces",
	"fallbackModel",
	"fastMode",
	"fastModePerSessionOptIn",
	"feedbackSurveyRate",
	"fileCheckpointingEnabled",
	"fileSuggestion",
	"footerLinksRegexes",
	"forceLoginMethod",
	"forceLoginOrgUUID",
	"forceRemoteSettingsRefresh",
	"gcpAuthRefresh",
	"httpHookAllowedEnvVars",
	"ignorePatterns",
	"includeCoAuthoredBy",
	"includeGitInstructions",
	"inputNeededNotifEnabled",
	"language",
	"leftArrowOpensAgents",
	"managedMcpServers",
	"minimumVersion",
	"modelOverrides",
	"otelHeadersHelper",
	"outputStyle",
	"parentSettingsBehavior",
	"plansDirectory",
	"pluginConfigs",
	"pluginSuggestionMarketplaces",
	"pluginTrustMessage",
	"policyHelper",
	"preferredNotifChannel",
	"prefersReducedMotion",
	"prUrlTemplate",
	"remoteControlAtStartup",
	"requiredMaximumVersion",
	"requiredMinimumVersion",
	"respectGitignore",
	"respondToBashCommands",
	"showClearContextOnPlanAccept",
	"showThinkingSummaries",
	"showTurnDuration",
	"skillListingBudgetFraction",
	"skillListingMaxDescChars",
	"skillOverrides",
	"skipDangerousModePermissionPrompt",
	"skippedMarketplaces",
	"skippedPlugins",
	"skipWebFetchPreflight",
	"spinnerTipsEnabled",
	"spinnerTipsOverride",
	"spinnerVerbs",
	"sshConfigs",
	"sshHostAllowlist",
	"statusLine",
	"strictKnownMarketplaces",
	"strictPluginOnlyCustomization",
	"subagentStatusLine",
	"syntaxHighlightingDisabled",
	"teammateMode",
	"terminalProgressBarEnabled",
	"theme",
	"tui",
	"useAutoModeDuringPlan",
	"verbose",
	"viewMode",
	"voice",
	"voiceEnabled",
	"wheelScrollAccelerationEnabled",
	"workflowKeywordTriggerEnabled",
	"worktree",
	"wslInheritsWindowsSettings",
];

/** The keys of `permissions` Gantry reads. */
export const PERMISSION_KEYS = ["allow", "deny", "ask", "defaultMode"] as const;

/** Claude Code's other `permissions` keys: accepted and listed in `ignored`. */
export const CLAUDE_CODE_ONLY_PERMISSION_KEYS: readonly string[] = [
	"additionalDirectories",
	"disableAutoMode",
	"disableBypassPermissionsMode",
];

/** Gantry's permission modes, as Claude Code names them. */
export const PERMISSION_MODES: readonly PermissionMode[] = [
	"default",
	"acceptEdits",
	"plan",
	"bypassPermissions",
	"dontAsk",
];

/** Claude Code's other modes: a `defaultMode` naming one is listed in `ignored` and `default` applies. */
export const CLAUDE_CODE_ONLY_MODES: readonly string[] = ["auto", "delegate", "manual"];

/** The hook events Gantry runs. */
export const HOOK_EVENTS: readonly HookEventName[] = [
	"PreToolUse",
	"PostToolUse",
	"PostToolUseFailure",
	"UserPromptSubmit",
	"SessionStart",
	"SessionEnd",
	"Stop",
];

/** Claude Code's other hook events: accepted and listed in `ignored`. */
export const CLAUDE_CODE_ONLY_HOOK_EVENTS: readonly string[] = [
	"ConfigChange",
	"CwdChanged",
	"Elicitation",
	"ElicitationResult",
	"FileChanged",
	"InstructionsLoaded",
	"MessageDisplay",
	"Notification",
	"PermissionDenied",
	"PermissionRequest",
	"PostCompact",
	"PostToolBatch",
	"PreCompact",
	"Setup",
	"StopFailure",
	"SubagentStart",
	"SubagentStop",
	"TaskCompleted",
	"TaskCreated",
	"TeammateIdle",
	"UserPromptExpansion",
	"WorktreeCreate",
	"WorktreeRemove",
];

/** The `sandbox` keys Gantry reads (`SandboxSettings` of `@gantry/sandbox`), and those of its two groups. */
export const SANDBOX_KEYS = [
	"enabled",
	"autoAllowBashIfSandboxed",
	"excludedCommands",
	"allowUnsandboxedCommands",
	"failIfUnavailable",
	"filesystem",
	"network",
] as const;
export const SANDBOX_FILESYSTEM_KEYS = ["allowWrite", "denyWrite", "denyRead", "allowRead"] as const;
export const SANDBOX_NETWORK_KEYS = [
	"allowedDomains",
	"deniedDomains",
	"allowLocalBinding",
	"allowUnixSockets",
] as const;

/** Claude Code's other `sandbox` keys, by group (`""` is the top of `sandbox`): accepted and listed in `ignored`. */
export const CLAUDE_CODE_ONLY_SANDBOX_KEYS: Readonly<Record<"" | "filesystem" | "network", readonly string[]>> = {
	"": [
		"allowAppleEvents",
		"bwrapPath",
		"credentials",
		"enabledPlatforms",
		"enableWeakerNestedSandbox",
		"enableWeakerNetworkIsolation",
		"ignoreViolations",
		"ripgrep",
		"socatPath",
	],
	filesystem: ["allowManagedReadPathsOnly"],
	network: [
		"allowAllUnixSockets",
		"allowedHosts",
		"allowMachLookup",
		"allowManagedDomainsOnly",
		"httpProxyPort",
		"socksProxyPort",
	],
};

/** Fields of one command hook and of one matcher group. */
export const HOOK_COMMAND_KEYS = ["type", "command", "timeout"] as const;
export const CLAUDE_CODE_ONLY_HOOK_COMMAND_KEYS: readonly string[] = [
	"args",
	"async",
	"asyncRewake",
	"if",
	"shell",
	"statusMessage",
];
/** Claude Code's hook types besides `"command"`: such hooks are listed in `ignored` and not run. */
export const CLAUDE_CODE_ONLY_HOOK_TYPES: readonly string[] = ["prompt", "agent", "http", "mcp_tool"];
