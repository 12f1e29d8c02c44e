// @gantry/coding-agent public API: createAgentSession, AgentSession, AgentSessionOptions, AgentSessionEvent,
// AgentSessionListener, SessionDiagnosticListener, createPermissionPolicy, classifyTool, PermissionPolicyOptions,
// PermissionClass, PermissionRules, explainToolPermission, analyzeShellCommand, buildSystemPrompt, findContextFiles,
// ContextFile, CONTEXT_FILE_NAMES, CONTEXT_FILES_MAX_BYTES, Transcript,
// loadTranscript, transcript entry types, NESTED_CALL_LIMITS, compileNamePatterns, createCodemodeToolDefinition,
// runCodemodeScript,
// createToolSearchToolDefinition, rankTools, CodingAgentError, CodingAgentErrorCode, the settings types
// (GantrySettings, LoadedSettings, PermissionMode, HookEventName, HookMatcher, CommandHook, HooksSettings, SettingsScope,
// RuleSource), loadSettings, LoadSettingsOptions, isProjectTrusted, trustProject, trustProjectOn, ProjectPlace,
// checkPermissionRule, rulesMatchingNoTool, PermissionHints, PermissionHint, PermissionOrigins, PERMISSION_MODES,
// permissionModeOf, nextPermissionMode, closestName, SessionPermissions (type), checkpoints (CheckpointInfo,
// RewindOptions, RewindResult, CHECKPOINT_FILE_SIZE_LIMIT, the transcript's checkpoint and rewind entries,
// listTranscriptCheckpoints, rewindTranscript), the compaction types (CompactionOptions, CompactionResult,
// CompactionEvent, CompactionReason, LoadedCompaction, transcript compaction/trim entries).
export {
	CHECKPOINT_FILE_SIZE_LIMIT,
	type CheckpointInfo,
	type CheckpointSegment,
	listTranscriptCheckpoints,
	type RewindOptions,
	type RewindResult,
	type RewindTranscriptOptions,
	rewindTranscript,
	type TranscriptCheckpointEntry,
	type TranscriptRewindEntry,
} from "./checkpoints/index.js";
export {
	type CodemodeToolDetails,
	type CodemodeToolHost,
	type CodemodeToolOptions,
	createCodemodeToolDefinition,
	DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS,
	DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES,
	DEFAULT_CODEMODE_TIMEOUT_MS,
	runCodemodeScript,
} from "./codemode/index.js";
export type {
	CompactionEvent,
	CompactionOptions,
	CompactionReason,
	CompactionResult,
	LoadedCompaction,
	TranscriptCompactionEntry,
	TranscriptTrimEntry,
} from "./compaction/types.js";
export { CodingAgentError, type CodingAgentErrorCode } from "./errors.js";
export { type PermissionHint, PermissionHints } from "./permissions/permission-hints.js";
export { nextPermissionMode, permissionModeOf } from "./permissions/permission-modes.js";
export { createPermissionPolicy, type PermissionPolicyOptions } from "./permissions/permission-policy.js";
export type { PermissionRules } from "./permissions/permission-rules.js";
export { rulesMatchingNoTool } from "./permissions/rule-tool-check.js";
export {
	analyzeShellCommand,
	type ShellCommandAnalysis,
	type ShellSimpleCommand,
	type ShellWord,
} from "./permissions/shell-analysis.js";
export { classifyTool, type PermissionClass } from "./permissions/tool-class.js";
export { explainToolPermission, type PermissionOrigins, type ToolPermission } from "./permissions/tool-permission.js";
export {
	AgentSession,
	type AgentSessionEvent,
	type AgentSessionListener,
	type SessionDiagnosticListener,
} from "./session/agent-session.js";
export {
	CONTEXT_FILE_NAMES,
	CONTEXT_FILES_MAX_BYTES,
	type ContextFile,
	type FindContextFilesOptions,
	findContextFiles,
} from "./session/context-files.js";
export { createAgentSession } from "./session/create-session.js";
export { compileNamePatterns } from "./session/name-patterns.js";
export { NESTED_CALL_LIMITS } from "./session/nested-records.js";
export type { AgentSessionOptions } from "./session/session-options.js";
export type { SessionPermissions } from "./session/session-permissions.js";
export { buildSystemPrompt, type SystemPromptInput } from "./session/system-prompt.js";
export {
	type LoadedTranscript,
	loadTranscript,
	readRecordedModel,
	Transcript,
	type TranscriptEntry,
	type TranscriptExecution,
	type TranscriptHeader,
	type TranscriptMessageEntry,
	type TranscriptModelEntry,
	type TranscriptToolsEntry,
} from "./session/transcript.js";
export { closestName } from "./settings/did-you-mean.js";
export { type LoadSettingsOptions, loadSettings } from "./settings/load-settings.js";
export { isProjectTrusted, type ProjectPlace, trustProject, trustProjectOn } from "./settings/project-trust.js";
export { PERMISSION_MODES } from "./settings/settings-keys.js";
export type {
	CommandHook,
	GantrySettings,
	HookEventName,
	HookMatcher,
	HooksSettings,
	LoadedSettings,
	PermissionMode,
	RuleSource,
	SettingsScope,
} from "./settings/types.js";
export { checkPermissionRule } from "./settings/validate-settings.js";
export { createToolSearchToolDefinition, rankTools } from "./tool-search/index.js";
