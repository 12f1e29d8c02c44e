import { errorText, GantryError } from "@gantry/ai";
import { childAbortController, throwIfAborted } from "../abort.js";
import type { Workspace, WorkspaceProcesses } from "../workspace/types.js";

/** rg could not be started (a broken install, or removed since it was looked up). */
export class RipgrepUnavailableError extends GantryError<"ripgrep_unavailable"> {
	override readonly name = "RipgrepUnavailableError";
	constructor(message: string) {
		super("ripgrep_unavailable", message);
	}
}

/** Most bytes of rg's error output kept for messages. */
const STDERR_LIMIT = 8 * 1024;

export interface RipgrepExit {
	/** rg's exit code: 0 matches, 1 none, 2 an error (possibly with partial results); null when killed. */
	code: number | null;
	/** The start of rg's error output. */
	stderr: string;
}

/**
 * Runs rg with `args` in `cwd` through the workspace's processes, passing each chunk of its standard
 * output to `onOutput`. Abort kills rg and rejects with `Operation aborted`; so does a throwing `onOutput`
 * (rejecting with its error). Rejects with `RipgrepUnavailableError` when rg cannot be started.
 */
export async function runRipgrep(
	processes: WorkspaceProcesses,
	executable: string,
	args: readonly string[],
	options: { cwd: string; signal: AbortSignal | undefined; onOutput: (chunk: Buffer) => void },
): Promise<RipgrepExit> {
	const { cwd, signal, onOutput } = options;
	throwIfAborted(signal);
	const { controller, dispose } = childAbortController(signal);
	let stderr = "";
	let failure: Error | undefined;
	const stop = (error: Error) => {
		if (failure !== undefined) return;
		failure = error;
		controller.abort();
	};
	let exit: RipgrepExit;
	try {
		const status = await processes.spawn(executable, args, {
			cwd,
			signal: controller.signal,
			onStdout: (chunk) => {
				if (failure !== undefined) return undefined;
				try {
					onOutput(chunk);
				} catch (error) {
					stop(error instanceof Error ? error : new Error(String(error)));
				}
				return undefined;
			},
			onStderr: (chunk) => {
				if (stderr.length < STDERR_LIMIT) stderr += chunk.toString("utf8", 0, STDERR_LIMIT - stderr.length);
				return undefined;
			},
		});
		exit = { code: status.exitCode, stderr };
	} catch (error) {
		if (failure === undefined && !signal?.aborted)
			throw new RipgrepUnavailableError(`Could not run ripgrep (${executable}): ${errorText(error)}`);
		exit = { code: null, stderr };
	} finally {
		dispose();
	}
	if (failure !== undefined) throw failure;
	throwIfAborted(signal);
	return exit;
}

const lookups = new WeakMap<WorkspaceProcesses, Promise<string | undefined>>();

/** The path of `rg` on the workspace's host, or undefined. Looked up once per workspace. */
export function findRipgrep(workspace: Workspace): Promise<string | undefined> {
	let lookup = lookups.get(workspace.processes);
	if (lookup === undefined) {
		lookup = workspace.processes.which("rg").catch(() => undefined);
		lookups.set(workspace.processes, lookup);
	}
	return lookup;
}
