import { join, posix } from "node:path";
import { errorText } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";

/** How one hook command ended. */
export interface HookProcessResult {
	/** The exit code; null when it was killed (timeout, abort) or could not start. */
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** Killed after its timeout. */
	timedOut: boolean;
	/** Killed because the session aborted. */
	aborted: boolean;
	/** Why it could not start (no shell, the folder is gone). */
	startError?: string;
}

export interface HookProcessOptions {
	workspace: Workspace;
	/** The command line, run by the host's bash (else `/bin/sh`) as `bash -c command`. */
	command: string;
	/** The file the command reads as its standard input (written by the caller, on the workspace's host). */
	inputPath: string;
	/** Added to the workspace's (secret-free) environment. */
	env: Record<string, string>;
	timeoutMs: number;
	/** The session's abort: kills the command. */
	signal: AbortSignal;
	/** The shell to run commands with (see `findHookShell`). */
	shell: string;
}

/** The longest delay a Node timer takes (a longer one would fire at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Bytes kept of each stream; the rest is read and dropped, so a flood cannot fill memory or stall the hook. */
export const HOOK_STREAM_LIMIT_BYTES = 1024 * 1024;

/**
 * Runs one command hook through the workspace (so over SSH it runs on the workspace's host): in the
 * workspace's cwd, `inputPath` on its stdin, at most `timeoutMs` long. Past the timeout, or on abort, the
 * workspace kills the command's whole process tree before this settles. Never rejects.
 */
export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
	const { workspace } = options;
	const stdout = new StreamBuffer();
	const stderr = new StreamBuffer();
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(
		() => {
			timedOut = true;
			controller.abort();
		},
		Math.min(options.timeoutMs, MAX_TIMER_MS),
	);
	const stopOnAbort = () => controller.abort();
	options.signal.addEventListener("abort", stopOnAbort, { once: true });
	if (options.signal.aborted) controller.abort();
	const result = (exitCode: number | null, startError?: string): HookProcessResult => ({
		exitCode,
		stdout: stdout.text(),
		stderr: stderr.text(),
		timedOut,
		aborted: !timedOut && options.signal.aborted,
		...(startError === undefined ? {} : { startError }),
	});
	try {
		// The outer shell only points stdin at the input file and becomes the hook's own shell (exec): the
		// command runs exactly as `bash -c command` would, as the leader of the process group the workspace kills.
		const status = await workspace.processes.spawn(
			options.shell,
			["-c", 'exec "$0" -c "$1" <"$2"', options.shell, options.command, options.inputPath],
			{
				cwd: workspace.cwd,
				env: options.env,
				onStdout: (data) => stdout.add(data),
				onStderr: (data) => stderr.add(data),
				signal: controller.signal,
			},
		);
		return result(controller.signal.aborted ? null : status.exitCode);
	} catch (error) {
		return result(null, errorText(error));
	} finally {
		clearTimeout(timer);
		options.signal.removeEventListener("abort", stopOnAbort);
	}
}

/** The host's bash when it has one (Claude Code's users write bash), else `/bin/sh`. */
export async function findHookShell(workspace: Workspace): Promise<string> {
	const bash = await workspace.processes.which("bash").catch(() => undefined);
	return bash ?? "/bin/sh";
}

/** The input file of the `count`-th hook run, in the session's temp folder. */
export function hookInputPath(workspace: Workspace, tempDir: string, count: number): string {
	const name = `hook-input-${count}.json`;
	return workspace.isLocal ? join(tempDir, name) : posix.join(tempDir, name);
}

/** Collects a stream's first bytes; decodes once at the end, so a character split across chunks stays whole. */
class StreamBuffer {
	readonly #chunks: Buffer[] = [];
	#size = 0;
	#dropped = 0;

	add(data: Buffer): undefined {
		const room = HOOK_STREAM_LIMIT_BYTES - this.#size;
		if (room <= 0) {
			this.#dropped += data.length;
			return undefined;
		}
		const kept = data.length > room ? data.subarray(0, room) : data;
		this.#chunks.push(Buffer.from(kept));
		this.#size += kept.length;
		this.#dropped += data.length - kept.length;
		return undefined;
	}

	text(): string {
		const text = Buffer.concat(this.#chunks).toString("utf8");
		return this.#dropped === 0 ? text : `${text}\n[${this.#dropped} more bytes were dropped]`;
	}
}
