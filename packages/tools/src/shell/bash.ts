import { withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../truncate.js";
import type { Workspace } from "../workspace/types.js";
import { workspaceOf } from "../workspace/workspace-of.js";
import {
	createLocalShellOperations,
	type LocalShellOperationsOptions,
	type ShellInvocation,
	shellOperationsOn,
} from "./shell-operations.js";
import { createShellToolDefinition, withSandboxEscape } from "./shell-tool.js";
import { type BashOperations, type BashToolDetails, type BashToolOptions, bashSchema } from "./types.js";

export { BASH_UPDATE_THROTTLE_MS } from "./run-shell-command.js";

/**
 * Runs commands locally with `bash -c <command>` (the `bash` on PATH, or `shell`), each in its own
 * process group so abort and timeout kill the whole tree.
 */
export function createLocalBashOperations(
	options: LocalShellOperationsOptions & {
		/** The bash executable. Default `"bash"` (looked up on PATH). */
		shell?: string;
	} = {},
): BashOperations {
	return createLocalShellOperations(bashInvocation(options.shell ?? "bash"), options);
}

/** `<shell> -c <command>`. */
function bashInvocation(shell: string): ShellInvocation {
	return (command) => ({ file: shell, args: ["-c", command] });
}

/** The default `BashOperations`: local `bash -c`. */
export const localBashOperations: BashOperations = createLocalBashOperations();

/**
 * The `bash` tool: runs a command with `bash -c` in `cwd`; stdout and stderr merged in arrival order; the
 * output's tail within 2000 lines / 50 KiB (the complete output in a temp file when longer); a non-zero
 * exit returns `isError: true`; abort and timeout throw with the output so far, after killing the tree.
 */
export function createBashToolDefinition(
	cwdOrWorkspace: string | Workspace,
	options: BashToolOptions = {},
): ToolDefinition<typeof bashSchema, BashToolDetails> {
	const workspace = workspaceOf(cwdOrWorkspace);
	return createShellToolDefinition({
		name: "bash",
		label: "bash",
		description: `Run a bash command in the working directory (bash -c). stdout and stderr are returned merged, in the order they were written; stdin is closed. Output is cut to its last ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)}, whichever comes first; the complete output is then saved to a file whose path is given. A non-zero exit code is reported as an error together with the output. Optional timeout in seconds; on timeout the command and every process it started are killed.`,
		promptSnippet: "Run shell commands (build, test, git, search, file operations)",
		promptGuidelines: [
			"Use bash for builds, tests, git and other command-line work; prefer the read, edit and write tools for viewing and changing files.",
			"Give long-running bash commands a timeout, and redirect or filter verbose output (e.g. `| tail -50`).",
			"bash commands cannot read input: pass non-interactive flags (e.g. `--yes`) instead of waiting for a prompt.",
		],
		parameters: options.sandboxEscape === true ? withSandboxEscape(bashSchema) : bashSchema,
		prompt: "$",
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		workspace,
		operations: options.operations ?? shellOperationsOn(workspace.processes, bashInvocation("bash")),
		...withoutUndefined({ env: options.env, tempDir: options.tempDir, sandboxEscape: options.sandboxEscape }),
		runFileExample: "bash script.sh",
		checkCommandLength: options.operations === undefined,
		filePrefix: "gantry-bash",
	});
}
