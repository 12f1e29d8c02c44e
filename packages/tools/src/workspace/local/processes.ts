import { type ChildProcessByStdio, spawn as spawnChild } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { withoutUndefined } from "@gantry/ai";
import { onAbort, throwIfAborted } from "../../abort.js";
import { createOutputPump, DEFAULT_DRAIN_MS } from "../output-pump.js";
import type { WorkspaceExitStatus, WorkspaceProcesses, WorkspaceSpawnOptions } from "../types.js";
import { findExecutable } from "./find-executable.js";
import { CALL_MARKER_VARIABLE, DEFAULT_KILL_GRACE_MS, killLeftovers, killProcessTree } from "./kill-process-tree.js";
import { toolProcessEnvironment } from "./tool-environment.js";

export interface LocalProcessesOptions {
	/** Milliseconds between SIGTERM and SIGKILL when a process tree is killed. Default 500. */
	killGraceMs?: number;
	/**
	 * After a process exited, a background process it left may still hold the output open: reading goes
	 * on while output keeps arriving within each `drainMs` (at most 20 times), then stops. Default 100 ms.
	 */
	drainMs?: number;
	/**
	 * The environment every process starts from, before a spawn's own `env`: a record, or a function
	 * called at each spawn. Default `toolProcessEnvironment()`: this process's environment without the
	 * variables whose names say they hold secrets (`*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`,
	 * `*CREDENTIAL*`). Pass `() => ({ ...process.env })` to hand everything on.
	 */
	environment?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);
}

/** Local processes, plus `killAll` for the session's `dispose()`. */
export interface LocalProcesses extends WorkspaceProcesses {
	/** Kills every process a `spawn` of this object started that still runs, background ones included. */
	killAll(): Promise<void>;
}

/**
 * This machine's processes, started with `child_process.spawn` (execa cost about 2 ms of CPU more per
 * command; see the package README). Each `spawn` is the leader of a new process group with stdin ignored, and
 * carries `GANTRY_CALL_ID=<id of this object>.<n>` in its environment, which starts from `environment`
 * (secrets left out by default) with the spawn's `env` on top. When the command ends — normally,
 * on abort or on timeout — its group and, on Linux, every process holding that value are killed (so
 * `cmd &`, `setsid` and double forks do not outlive the call); `killAll` kills every process holding this
 * object's id.
 */
export function createLocalProcesses(options: LocalProcessesOptions = {}): LocalProcesses {
	const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
	const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
	const environment = options.environment ?? (() => toolProcessEnvironment());
	const baseEnvironment = () => (typeof environment === "function" ? environment() : environment);
	const id = randomBytes(6).toString("hex");
	let calls = 0;
	const running = new Set<number>();

	async function spawn(
		file: string,
		args: readonly string[],
		{ cwd, env, onStdout, onStderr, signal, inheritedFiles = [] }: WorkspaceSpawnOptions,
	): Promise<WorkspaceExitStatus> {
		throwIfAborted(signal);
		const marker = `${id}.${++calls}`;
		const { child, ended } = startChild(file, args, cwd, { ...baseEnvironment(), ...env }, marker, inheritedFiles);
		const streams = [child.stdout, child.stderr];
		const stopReading = () => {
			for (const stream of streams) stream.destroy();
		};
		const pump = createOutputPump({
			pause: () => {
				for (const stream of streams) stream.pause();
			},
			resume: () => {
				for (const stream of streams) stream.resume();
			},
			stop: stopReading,
			drainMs,
		});
		child.stdout.on("data", (chunk: Buffer) => pump.deliver(onStdout, chunk));
		child.stderr.on("data", (chunk: Buffer) => pump.deliver(onStderr, chunk));
		const pid = child.pid;
		if (pid !== undefined) running.add(pid);
		child.once("exit", () => {
			if (pid !== undefined) running.delete(pid);
			pump.exited();
		});
		let killing: Promise<void> | undefined;
		const stopWaiting = onAbort(signal, () => {
			killing = killProcessTree(pid, { graceMs, marker }).then(stopReading);
		});
		try {
			const result = await ended;
			// Whatever the command left running (`cmd &`, a daemon) ends with it. Quick when nothing is left.
			if (pid !== undefined) killing ??= killLeftovers(pid, { graceMs, marker });
			await killing;
			if (result.signal) return { exitCode: null, signal: result.signal };
			if (typeof result.exitCode === "number") return { exitCode: result.exitCode };
			throw await startFailure(file, cwd, result.reason ?? "no exit code", result.code);
		} finally {
			pump.dispose();
			stopWaiting();
		}
	}

	return {
		spawn,
		inheritsFiles: true,
		which(name, lookupOptions) {
			const pathVariable = lookupOptions?.path ?? process.env.PATH ?? "";
			const key = `${name}\0${pathVariable}`;
			let lookup = lookups.get(key);
			if (lookup === undefined) {
				lookup = findExecutable(name, pathVariable);
				lookups.set(key, lookup);
				// Only finds are remembered: a program installed later is found by the next lookup.
				void lookup.then((found) => {
					if (found === undefined) lookups.delete(key);
				});
			}
			return lookup;
		},
		async killAll() {
			const groups = [...running];
			await Promise.all([
				killProcessTree(undefined, { graceMs, marker: id, markerIsPrefix: true }),
				...groups.map((pgid) => killProcessTree(pgid, { graceMs })),
			]);
		},
	};
}

async function startFailure(file: string, cwd: string, reason: string, code: string | undefined): Promise<Error> {
	const info = await stat(cwd).catch(() => undefined);
	if (!info)
		return codedError(`Working directory does not exist: ${cwd}. Run the command from an existing folder.`, "ENOENT");
	if (!info.isDirectory()) return codedError(`Working directory is not a folder: ${cwd}.`, "ENOTDIR");
	return codedError(`Could not start ${file}: ${reason}`, code);
}

function codedError(message: string, code: string | undefined): Error {
	return code === undefined ? new Error(message) : Object.assign(new Error(message), { code });
}

/** Programs found, by name and PATH value (the same for every local workspace). */
const lookups = new Map<string, Promise<string | undefined>>();

/** How a child ended: its exit code or signal, or why it could not start. */
interface ChildEnd {
	exitCode?: number | null;
	signal?: NodeJS.Signals | null;
	reason?: string;
	code?: string;
}

/**
 * Starts `file` as the leader of a new process group (a new session on Unix), stdin ignored, with
 * `env` (the whole environment) and the call's marker, and `inheritedFiles` open for reading from fd 3 on
 * (this process's copies are closed once the child has its own). `ended` settles once the process exited
 * and its output streams closed, or it failed to start.
 */
function startChild(
	file: string,
	args: readonly string[],
	cwd: string,
	env: Record<string, string>,
	marker: string,
	inheritedFiles: readonly string[],
): { child: ChildProcessByStdio<null, Readable, Readable>; ended: Promise<ChildEnd> } {
	const descriptors: number[] = [];
	let child: ChildProcessByStdio<null, Readable, Readable>;
	try {
		for (const inherited of inheritedFiles) descriptors.push(openSync(inherited, "r"));
		child = spawnChild(file, args, {
			cwd,
			env: { ...env, [CALL_MARKER_VARIABLE]: marker },
			detached: process.platform !== "win32",
			// Typed as the three standard streams: the descriptors after them are the child's only.
			stdio: ["ignore", "pipe", "pipe", ...descriptors] as unknown as ["ignore", "pipe", "pipe"],
			windowsHide: true,
		});
	} finally {
		for (const descriptor of descriptors) closeSync(descriptor);
	}
	const ended = new Promise<ChildEnd>((resolve) => {
		child.once("error", (error: NodeJS.ErrnoException) =>
			resolve(withoutUndefined({ reason: error.message, code: error.code })),
		);
		child.once("close", (exitCode, signal) => resolve({ exitCode, signal }));
	});
	return { child, ended };
}
