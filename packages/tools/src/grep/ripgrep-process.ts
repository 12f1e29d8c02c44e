import { spawn } from "node:child_process";
import { ABORTED_MESSAGE } from "../search/abort.js";
import { findExecutable } from "../shell/find-executable.js";

/** rg could not be started (a broken install, or removed since it was looked up). */
export class RipgrepUnavailableError extends Error {
	override readonly name = "RipgrepUnavailableError";
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
 * Runs rg with `args` in `cwd`, passing each chunk of its standard output to `onOutput`. Abort kills rg
 * and rejects with `Operation aborted`; so does a throwing `onOutput` (rejecting with its error). Rejects
 * with `RipgrepUnavailableError` when rg cannot be started.
 */
export function runRipgrep(
	executable: string,
	args: readonly string[],
	options: { cwd: string; signal: AbortSignal | undefined; onOutput: (chunk: Buffer) => void },
): Promise<RipgrepExit> {
	const { cwd, signal, onOutput } = options;
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(new Error(ABORTED_MESSAGE));
			return;
		}
		const child = spawn(executable, args, { cwd, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
		let stderr = "";
		let failure: Error | undefined;
		const stop = (error: Error) => {
			if (failure !== undefined) return;
			failure = error;
			child.kill("SIGKILL");
		};
		const onAbort = () => stop(new Error(ABORTED_MESSAGE));
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout.on("data", (chunk: Buffer) => {
			if (failure !== undefined) return;
			try {
				onOutput(chunk);
			} catch (error) {
				stop(error instanceof Error ? error : new Error(String(error)));
			}
		});
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (text: string) => {
			if (stderr.length < STDERR_LIMIT) stderr += text.slice(0, STDERR_LIMIT - stderr.length);
		});
		child.on("error", (error) => {
			signal?.removeEventListener("abort", onAbort);
			reject(new RipgrepUnavailableError(`Could not run ripgrep (${executable}): ${error.message}`));
		});
		child.on("close", (code) => {
			signal?.removeEventListener("abort", onAbort);
			if (failure !== undefined) reject(failure);
			else resolve({ code, stderr });
		});
	});
}

const lookups = new Map<string, Promise<string | undefined>>();

/** The path of `rg` on the current PATH, or undefined. Looked up once per PATH value. */
export function findRipgrep(): Promise<string | undefined> {
	const pathVariable = process.env.PATH ?? "";
	let lookup = lookups.get(pathVariable);
	if (lookup === undefined) {
		lookup = findExecutable("rg", pathVariable);
		lookups.set(pathVariable, lookup);
	}
	return lookup;
}
