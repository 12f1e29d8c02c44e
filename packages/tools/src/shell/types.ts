// Schemas and types of the bash and powershell tools.
import type { Static } from "@sinclair/typebox";
import type { ShellToolDetails } from "./run-shell-command.js";
import type { ShellOperations } from "./shell-operations.js";
import { createShellSchema } from "./shell-tool.js";

export const bashSchema = createShellSchema("Bash command to run (bash -c), e.g. `npm test 2>&1 | tail -50`.");

export type BashToolInput = Static<typeof bashSchema>;

/** `details` of a bash result: exit code, signal, truncation, full-output file, wall time. */
export type BashToolDetails = ShellToolDetails;

/** All I/O of the bash tool: `exec(command, cwd, { onData, signal, timeout, env })`. */
export type BashOperations = ShellOperations;

export interface BashToolOptions {
	/** Where commands run. Default `localBashOperations`. */
	operations?: BashOperations;
	/**
	 * Environment variables set on top of the inherited environment for every command (kept even when
	 * their names look secret). Default none.
	 */
	env?: Record<string, string>;
	/** Existing folder for full-output files of truncated output. Default `os.tmpdir()`. */
	tempDir?: string;
	/**
	 * Adds Claude Code's `dangerouslyDisableSandbox` parameter: a call that sets it asks the workspace to
	 * run the command outside its OS sandbox (`WorkspaceSpawnOptions.unsandboxed`). For a sandboxed
	 * workspace whose settings allow unsandboxed commands; the session sets it. Default false.
	 */
	sandboxEscape?: boolean;
}

export const powershellSchema = createShellSchema(
	"PowerShell command to run (pwsh -Command), e.g. `Get-ChildItem -Recurse -Filter *.ts | Select-Object -First 20`.",
);

export type PowerShellToolInput = Static<typeof powershellSchema>;

/** `details` of a powershell result: exit code, signal, truncation, full-output file, wall time. */
export type PowerShellToolDetails = ShellToolDetails;

/** All I/O of the powershell tool: `exec(command, cwd, { onData, signal, timeout, env })`. */
export type PowerShellOperations = ShellOperations;

export interface PowerShellToolOptions {
	/** Where commands run. Default `localPowerShellOperations`. */
	operations?: PowerShellOperations;
	/** Environment variables set on top of the inherited environment for every command. Default none. */
	env?: Record<string, string>;
	/** Existing folder for full-output files of truncated output. Default `os.tmpdir()`. */
	tempDir?: string;
}
