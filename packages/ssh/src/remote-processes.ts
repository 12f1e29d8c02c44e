import { randomBytes } from "node:crypto";
import {
	createOutputPump,
	type WorkspaceExitStatus,
	type WorkspaceProcesses,
	type WorkspaceSpawnOptions,
} from "@gantry/tools";
import { checkRemoteCommandLength } from "./command-length.js";
import type { SshConnection } from "./connection.js";
import { shellQuote, shellWords } from "./quote.js";
import { execCollect, type OpenedExec, openExec } from "./remote-exec.js";
import { CALL_MARKER_VARIABLE, type KillTarget, killScript, whichScript, wrapperScript } from "./remote-scripts.js";

const ABORTED = "Operation aborted";
/** How long a killed process may take to be reported gone before the channel is closed from this side. */
const KILLED_CLOSE_WAIT_MS = 3_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Remote processes, plus `killAll` for the session's `dispose()`. */
export interface RemoteProcesses extends WorkspaceProcesses {
	killAll(): Promise<void>;
}

/**
 * Remote processes: each `spawn` is one exec channel of the shared connection and carries
 * `GANTRY_CALL_ID=<id of this object>.<n>`. When the command ends (normally or on abort) its process group
 * and every process with its marker are killed, so nothing it left in the background outlives it;
 * `killAll` kills every group started and every process with this object's id.
 */
export function createRemoteProcesses(connection: SshConnection, killGraceMs = 500): RemoteProcesses {
	const id = randomBytes(6).toString("hex");
	let calls = 0;
	const groups = new Set<number>();
	const kill = (target: KillTarget) =>
		connection.use((live) => execCollect(live.client, killScript(target))).then(() => undefined);
	return {
		async spawn(file, args, options) {
			if (options.signal?.aborted) throw new Error(ABORTED);
			for (const name of Object.keys(options.env ?? {})) {
				if (!ENV_NAME.test(name)) throw new Error(`Invalid environment variable name ${JSON.stringify(name)}.`);
			}
			const marker = `${id}.${++calls}`;
			const env = { ...options.env, [CALL_MARKER_VARIABLE]: marker };
			const command = `exec /bin/sh -c ${shellQuote(wrapperScript(env))} gantry ${shellWords([options.cwd, file, ...args])}`;
			checkRemoteCommandLength(file, command);
			// Opening the channel may be retried on a new connection; the running command is not.
			const { live, opened } = await connection.use(async (live) => ({
				live,
				opened: await openExec(live.client, command),
			}));
			return connection.guard(live, () =>
				runChannel(opened, file, options, {
					started: (pgid) => groups.add(pgid),
					kill: (pgid) => kill({ groups: [pgid], marker, graceMs: killGraceMs }),
				}),
			);
		},
		async which(name: string, lookup?: { path?: string }) {
			if (name === "" || name.includes("\n")) return undefined;
			const result = await connection.use((live) => execCollect(live.client, whichScript(name, lookup?.path)));
			const found = result.stdout.split("\n")[0] ?? "";
			return result.exitCode === 0 && found.startsWith("/") ? found : undefined;
		},
		async killAll() {
			const started = [...groups];
			groups.clear();
			await kill({ groups: started, marker: `${id}.`, prefix: true, graceMs: killGraceMs }).catch(() => undefined);
		},
	};
}

interface GroupControl {
	started(pgid: number): void;
	kill(pgid: number): Promise<void>;
}

function runChannel(
	{ channel, exitReported, exited }: OpenedExec,
	file: string,
	options: WorkspaceSpawnOptions,
	group: GroupControl,
): Promise<WorkspaceExitStatus> {
	const { onStdout, onStderr, signal, cwd } = options;
	return new Promise<WorkspaceExitStatus>((resolve, reject) => {
		let header = Buffer.alloc(0);
		let pgid: number | undefined;
		let startError: Error | undefined;
		let aborted = false;
		let killing: Promise<void> | undefined;

		// Output is read as in the local workspace: paused while a consumer is busy, drained after the exit.
		const pump = createOutputPump({
			pause: () => {
				channel.pause();
				channel.stderr.pause();
			},
			resume: () => {
				channel.resume();
				channel.stderr.resume();
			},
			stop: () => channel.close(),
		});
		const deliver = (handler: WorkspaceSpawnOptions["onStdout"], chunk: Buffer) => pump.deliver(handler, chunk);
		channel.on("data", (chunk: Buffer) => {
			if (pgid !== undefined || startError) {
				deliver(onStdout, chunk);
				return;
			}
			header = Buffer.concat([header, chunk]);
			const newline = header.indexOf(0x0a);
			if (newline < 0) return;
			const line = header.subarray(0, newline).toString("utf8");
			const rest = header.subarray(newline + 1);
			if (line.startsWith("P ")) {
				pgid = Number(line.slice(2));
				group.started(pgid);
				if (aborted) killing ??= group.kill(pgid);
				deliver(onStdout, rest);
			} else if (line === "E cwd") {
				startError = Object.assign(
					new Error(`Working directory does not exist: ${cwd}. Run the command from an existing folder.`),
					{ code: "ENOENT" },
				);
			} else {
				startError = Object.assign(new Error(`Could not start ${file}: it was not found on the host's PATH.`), {
					code: "ENOENT",
				});
			}
		});
		channel.stderr.on("data", (chunk: Buffer) => deliver(onStderr, chunk));
		if (!onStderr) channel.stderr.resume();

		void exitReported.then(() => pump.exited());

		const onAbort = () => {
			aborted = true;
			if (pgid !== undefined) killing ??= group.kill(pgid);
		};
		signal?.addEventListener("abort", onAbort, { once: true });

		exited.then(
			async (exit) => {
				pump.dispose();
				signal?.removeEventListener("abort", onAbort);
				if (startError) return reject(startError);
				if (aborted) {
					await killing?.catch(() => undefined);
					return reject(new Error(ABORTED));
				}
				if (exit.lost) return reject(new Error(`The connection closed before ${file} reported how it ended.`));
				// Whatever the command left running (`cmd &`, a daemon) ends with it, as locally.
				if (pgid !== undefined) await group.kill(pgid).catch(() => undefined);
				resolve(exit.signal ? { exitCode: null, signal: exit.signal } : { exitCode: exit.exitCode });
			},
			(error) => reject(error),
		);
		// A killed group closes the channel; if a stray process still holds it open, it is closed from here.
		signal?.addEventListener(
			"abort",
			() => {
				const timer = setTimeout(() => channel.close(), KILLED_CLOSE_WAIT_MS);
				exited.finally(() => clearTimeout(timer));
			},
			{ once: true },
		);
	});
}
