import { withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../truncate.js";
import { createLocalProcesses } from "../workspace/local/processes.js";
import type { Workspace, WorkspaceProcesses } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import { type LocalShellOperationsOptions, type ShellInvocation, shellOperationsOn } from "./shell-operations.js";
import { createShellToolDefinition } from "./shell-tool.js";
import {
	type PowerShellOperations,
	type PowerShellToolDetails,
	type PowerShellToolOptions,
	powershellSchema,
} from "./types.js";

const POWERSHELL_ARGUMENTS = ["-NoProfile", "-NonInteractive", "-Command"];

/**
 * Runs commands locally with `pwsh -NoProfile -NonInteractive -Command <command>`, found on PATH (the
 * `env.PATH` of the call when given) at each call; on Windows without `pwsh`, Windows PowerShell
 * (`powershell.exe`). Rejects with an installation hint when neither is there.
 */
export function createLocalPowerShellOperations(options: LocalShellOperationsOptions = {}): PowerShellOperations {
	const processes = createLocalProcesses(options);
	return shellOperationsOn(processes, powershellInvocation(processes));
}

/** `pwsh -NoProfile -NonInteractive -Command <command>`, pwsh looked up at each call. */
function powershellInvocation(processes: WorkspaceProcesses): ShellInvocation {
	return async (command, env) => {
		const file = await processes.which("pwsh", env?.PATH === undefined ? undefined : { path: env.PATH });
		if (file) return { file, args: [...POWERSHELL_ARGUMENTS, command] };
		if (process.platform === "win32") return { file: "powershell.exe", args: [...POWERSHELL_ARGUMENTS, command] };
		throw new Error(
			"PowerShell is not installed: no `pwsh` executable was found on PATH. Install PowerShell 7 (https://aka.ms/powershell) or use the bash tool instead.",
		);
	};
}

/** The default `PowerShellOperations`: local `pwsh`. */
export const localPowerShellOperations: PowerShellOperations = createLocalPowerShellOperations();

/**
 * The `powershell` tool: bash's machinery (process tree, merged output, truncation, full-output file,
 * throttled updates, timeout) with `pwsh`. Available on Windows, and elsewhere when `pwsh` is on PATH.
 */
export function createPowerShellToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: PowerShellToolOptions = {},
): ToolDefinition<typeof powershellSchema, PowerShellToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	return createShellToolDefinition({
		name: "powershell",
		label: "PowerShell",
		description: `Run a PowerShell command in the working directory (pwsh -NoProfile -NonInteractive -Command). All output streams are returned merged, in the order they were written; there is no interactive input. Output is cut to its last ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)}, whichever comes first; the complete output is then saved to a file whose path is given. A non-zero exit code is reported as an error together with the output. Optional timeout in seconds; on timeout the command and every process it started are killed.`,
		promptSnippet: "Run PowerShell commands (pwsh)",
		promptGuidelines: [
			"Use powershell for Windows-specific or PowerShell-native work; it runs pwsh without a profile and without interactive input.",
			"Give long-running powershell commands a timeout, and filter verbose output (e.g. `| Select-Object -Last 50`).",
		],
		parameters: powershellSchema,
		prompt: "PS>",
		workspace,
		operations: options.operations ?? shellOperationsOn(workspace.processes, powershellInvocation(workspace.processes)),
		...withoutUndefined({ env: options.env, tempDir: options.tempDir }),
		runFileExample: "& ./script.ps1",
		checkCommandLength: options.operations === undefined,
		filePrefix: "gantry-powershell",
	});
}
