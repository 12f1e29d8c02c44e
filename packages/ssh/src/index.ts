// @gantry/ssh public API: createSshWorkspace, SshWorkspace, SshWorkspaceOptions, SshError, SshErrorCode.

export { SshError, type SshErrorCode } from "./errors.js";
export type { SshWorkspaceOptions } from "./options.js";
export { createSshWorkspace, type SshWorkspace } from "./ssh-workspace.js";
