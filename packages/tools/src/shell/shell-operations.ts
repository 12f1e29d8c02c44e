import { stat } from "node:fs/promises";
import { DEFAULT_KILL_GRACE_MS, killProcessTree } from "./kill-process-tree.js";

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

export interface LocalShellOperationsOptions {
	/** Milliseconds between SIGTERM and SIGKILL when a command is killed. Default 500. */
	killGraceMs?: number;
	/**
	 * After the shell exited, a background process it left may still hold the output open: reading goes on
	 * while output keeps arriving within each `drainMs` (at most 20 times), then stops. Default 100 ms.
	 */
	drainMs?: number;
}

const DEFAULT_DRAIN_MS = 100;
const MAX_BUSY_DRAIN_CHECKS = 20;

/**
 * Local `ShellOperations`: spawns the invocation with execa as the leader of a new process group, stdin
 * ignored (a command waiting for input sees end of file instead of hanging), and kills the whole group on
 * abort. Processes a finished command left in the background keep running.
 */
export function createLocalShellOperations(
	invocation: ShellInvocation,
	options: LocalShellOperationsOptions = {},
): ShellOperations {
	const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
	const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
	return {
		async exec(command, cwd, { onData, signal, env }) {
			if (signal?.aborted) throw new Error("Operation aborted");
			const { file, args } = await invocation(command, env);
			const { execa } = await loadExeca();
			const subprocess = execa(file, args, {
				cwd,
				env,
				detached: process.platform !== "win32",
				stdin: "ignore",
				buffer: false,
				reject: false,
				encoding: "buffer",
				stripFinalNewline: false,
				windowsHide: true,
			});
			const streams = [subprocess.stdout, subprocess.stderr];
			let paused = false;
			let receivedSinceCheck = false;
			const onChunk = (chunk: Buffer) => {
				receivedSinceCheck = true;
				const wait = onData(chunk);
				if (!wait || paused) return;
				paused = true;
				for (const stream of streams) stream.pause();
				const resume = () => {
					paused = false;
					for (const stream of streams) stream.resume();
				};
				wait.then(resume, resume);
			};
			for (const stream of streams) stream.on("data", onChunk);
			const pid = subprocess.pid;

			const stopReading = () => {
				for (const stream of streams) stream.destroy();
			};
			let drainTimer: NodeJS.Timeout | undefined;
			let busyChecks = 0;
			const checkDrained = () => {
				const busy = paused || (receivedSinceCheck && busyChecks++ < MAX_BUSY_DRAIN_CHECKS);
				receivedSinceCheck = false;
				if (busy) drainTimer = setTimeout(checkDrained, drainMs);
				else stopReading();
			};
			subprocess.once("exit", () => {
				receivedSinceCheck = false;
				drainTimer = setTimeout(checkDrained, drainMs);
			});
			let killing: Promise<void> | undefined;
			const onAbort = () => {
				if (pid === undefined) return;
				killing = killProcessTree(pid, { graceMs }).then(stopReading);
			};
			signal?.addEventListener("abort", onAbort, { once: true });
			if (signal?.aborted) onAbort();
			try {
				const result = await subprocess;
				await killing;
				if (result.signal) return { exitCode: null, signal: result.signal };
				if (typeof result.exitCode === "number") return { exitCode: result.exitCode };
				throw await startFailure(file, cwd, result.originalMessage ?? result.message ?? "no exit code");
			} finally {
				clearTimeout(drainTimer);
				signal?.removeEventListener("abort", onAbort);
			}
		},
	};
}

async function startFailure(file: string, cwd: string, reason: string): Promise<Error> {
	const info = await stat(cwd).catch(() => undefined);
	if (!info) return new Error(`Working directory does not exist: ${cwd}. Run the command from an existing folder.`);
	if (!info.isDirectory()) return new Error(`Working directory is not a folder: ${cwd}.`);
	return new Error(`Could not start ${file}: ${reason}`);
}

let execaLoading: Promise<typeof import("execa")> | undefined;

/** execa takes ~130 ms to load; it is loaded when the first command runs, not at import time. */
function loadExeca(): Promise<typeof import("execa")> {
	execaLoading ??= import("execa");
	return execaLoading;
}
