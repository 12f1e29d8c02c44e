// @gantry/sandbox public API: createSandboxedWorkspace, SandboxedWorkspaceOptions, SandboxSettings,
// SandboxedWorkspace, SandboxStatus, CommandPlacement, isSandboxedWorkspace, resolveSandboxSettings,
// ResolvedSandboxSettings, resolveSettingsPath, SandboxError, SANDBOX_REFUSED, RuleDeny.

export { createSandboxedWorkspace, type SandboxedWorkspaceOptions } from "./create-sandboxed-workspace.js";
export { SandboxError, type SandboxErrorCode } from "./errors.js";
export { type ResolvedSandboxSettings, resolveSandboxSettings, resolveSettingsPath } from "./resolve-settings.js";
export { SANDBOX_REFUSED } from "./sandboxed-file-system.js";
export {
	type CommandPlacement,
	isSandboxedWorkspace,
	type SandboxedCommand,
	type SandboxedWorkspace,
	type SandboxStatus,
} from "./sandboxed-workspace.js";
export type { SandboxSettings } from "./settings.js";
export type { RuleDeny } from "./workspace-lists.js";
