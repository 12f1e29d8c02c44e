// @gantry/sandbox public API: SandboxSettings, SandboxedWorkspace, SandboxStatus (createSandboxedWorkspace follows).

export type { SandboxedWorkspace, SandboxStatus } from "./sandboxed-workspace.js";
export type { SandboxSettings } from "./settings.js";
