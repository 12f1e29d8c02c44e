import { withoutUndefined } from "@gantry/ai";
import { throwIfAborted } from "../abort.js";
import { createLocalProcesses, type LocalProcessesOptions } from "../workspace/local/processes.js";
import type { WorkspaceProcesses } from "../workspace/types.js";

/** Options of one `ShellOperations.exec` call. */
export interface ShellExecOptions {
	/**
	 * Receives stdout and stderr chunks, merged in arrival order. Must not throw. When it returns a
	 * promise, the implementation should stop reading until it settles (flow control: the consumer is
	 * still saving earlier output).
	 */
	onData: (data: Buffer) => Promise<void> | undefined;
	/**
	 * Aborts the command: the implementation kills every process the command started and settles only
	 * once they are gone. The shell core also aborts it when `timeout` passes.
	 */
	signal?: AbortSignal;
	/**
	 * The command's time limit in seconds, for information: the shell core enforces it through `signal`,
	 * so an implementation need not (a remote one may pass it on).
	 */
	timeout?: number;
	/** Environment variables set on top of the inherited environment. */
	env?: Record<string, string>;
	/** Run outside the workspace's OS sandbox (see `WorkspaceSpawnOptions.unsandboxed`). Default false. */
	unsandboxed?: boolean;
}

/** How a command ended. */
export interface ShellExecResult {
	/** The exit code; null when the process was ended by a signal. */
	exitCode: number | null;
	/** The signal that ended the process, e.g. `"SIGKILL"`. */
	signal?: string;
}

/** All I/O of a shell tool: run one command in a folder. Pass your own to run commands elsewhere (e.g. over SSH). */
export interface ShellOperations {
	/**
	 * Runs `command` in `cwd`, streaming its output to `onData`. Resolves when the command's own process
	 * exited and its output was read. Rejects (with a message saying what to fix) when it cannot start.
	 */
	exec(command: string, cwd: string, options: ShellExecOptions): Promise<ShellExecResult>;
}

/** The program and arguments that run one command. May throw (e.g. the shell is not installed). */
export type ShellInvocation = (
	command: string,
	env: Record<string, string> | undefined,
) => { file: string; args: string[] } | Promise<{ file: string; args: string[] }>;

/** Options of the local processes behind `createLocalShellOperations`. */
export type LocalShellOperationsOptions = LocalProcessesOptions;

/**
 * `ShellOperations` on a workspace's processes: each command runs as `invocation` gives it, with stdout
 * and stderr both passed to `onData`, as the leader of its own process group (killed with everything it
 * started on abort).
 */
export function shellOperationsOn(processes: WorkspaceProcesses, invocation: ShellInvocation): ShellOperations {
	return {
		async exec(command, cwd, { onData, signal, env, unsandboxed }) {
			throwIfAborted(signal);
			const { file, args } = await invocation(command, env);
			return processes.spawn(
				file,
				args,
				withoutUndefined({
					cwd,
					env,
					onStdout: onData,
					onStderr: onData,
					signal,
					unsandboxed: unsandboxed || undefined,
				}),
			);
		},
	};
}

/**
 * Local `ShellOperations`: spawns the invocation as the leader of a new process group, stdin ignored (a
 * command waiting for input sees end of file instead of hanging), and kills the whole tree on abort
 * (see `createLocalProcesses`). Processes a finished command left in the background keep running.
 */
export function createLocalShellOperations(
	invocation: ShellInvocation,
	options: LocalShellOperationsOptions = {},
): ShellOperations {
	return shellOperationsOn(createLocalProcesses(options), invocation);
}
