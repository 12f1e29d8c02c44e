import type { WorkspaceExitStatus, WorkspaceProcesses, WorkspaceSpawnOptions } from "@gantry/tools";
import type { ClientChannel } from "ssh2";
import type { SshConnection } from "./connection.js";
import { shellQuote, shellWords } from "./quote.js";
import { channelExit, execCollect, openExec } from "./remote-exec.js";

const ABORTED = "Operation aborted";
/** After the process exited, output a background process still writes is read while it keeps coming (like locally). */
const DRAIN_MS = 100;
const MAX_BUSY_DRAIN_CHECKS = 20;
/** How long a killed process may take to be reported gone before the channel is closed from this side. */
const KILLED_CLOSE_WAIT_MS = 3_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The wrapper every spawned command starts in (`sh -c SCRIPT gantry CWD FILE ARGS…`): it enters the
 * folder, sets the variables, checks the program exists, prints its process id on the first line of
 * standard output and replaces itself with the program. OpenSSH starts a command without a pty as the
 * leader of a new session, so that id is the process group of the whole tree the command starts, and
 * abort signals that group from a second channel.
 */
function wrapperScript(env: Record<string, string> | undefined): string {
	const exports = Object.entries(env ?? {}).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
	return [
		`cd -- "$1" 2>/dev/null || { printf 'E cwd\\n'; exit 127; }`,
		"shift",
		...exports,
		`command -v "$1" >/dev/null 2>&1 || { printf 'E file\\n'; exit 127; }`,
		`printf 'P %s\\n' "$$"`,
		`exec "$@"`,
	].join("\n");
}

/** Signals the group: TERM, up to `graceMs` for it to go, then KILL. Runs as one short remote script. */
function killScript(pgid: number, graceMs: number): string {
	const rounds = Math.max(1, Math.ceil(graceMs / 20));
	return [
		`kill -s TERM -- -${pgid} 2>/dev/null || exit 0`,
		"i=0",
		`while kill -s 0 -- -${pgid} 2>/dev/null; do`,
		`  i=$((i+1)); [ "$i" -gt ${rounds} ] && break; sleep 0.02`,
		"done",
		`kill -s KILL -- -${pgid} 2>/dev/null`,
		"exit 0",
	].join("\n");
}

/** Looks for an executable file on PATH (not a shell builtin or function, which `spawn` could not start). */
function whichScript(name: string): string {
	const quoted = shellQuote(name);
	if (name.includes("/")) return `[ -f ${quoted} ] && [ -x ${quoted} ] && printf '%s\\n' ${quoted}`;
	return [
		"IFS=:",
		"for folder in $PATH; do",
		`  [ -f "$folder/"${quoted} ] && [ -x "$folder/"${quoted} ] && { printf '%s\\n' "$folder/"${quoted}; exit 0; }`,
		"done",
		"exit 1",
	].join("\n");
}

/** Remote processes: each `spawn` is one exec channel of the shared connection. */
export function createRemoteProcesses(connection: SshConnection, killGraceMs = 500): WorkspaceProcesses {
	return {
		async spawn(file, args, options) {
			if (options.signal?.aborted) throw new Error(ABORTED);
			for (const name of Object.keys(options.env ?? {})) {
				if (!ENV_NAME.test(name)) throw new Error(`Invalid environment variable name ${JSON.stringify(name)}.`);
			}
			const command = `exec /bin/sh -c ${shellQuote(wrapperScript(options.env))} gantry ${shellWords([options.cwd, file, ...args])}`;
			// Opening the channel may be retried on a new connection; the running command is not.
			const { live, channel } = await connection.use(async (live) => ({
				live,
				channel: await openExec(live.client, command),
			}));
			return connection.guard(live, () =>
				runChannel(channel, file, options, (pgid) =>
					connection.use((current) => execCollect(current.client, killScript(pgid, killGraceMs))).then(() => undefined),
				),
			);
		},
		async which(name) {
			if (name === "" || name.includes("\n")) return undefined;
			const result = await connection.use((live) => execCollect(live.client, whichScript(name)));
			const found = result.stdout.split("\n")[0];
			return result.exitCode === 0 && found.startsWith("/") ? found : undefined;
		},
	};
}

function runChannel(
	channel: ClientChannel,
	file: string,
	options: WorkspaceSpawnOptions,
	killGroup: (pgid: number) => Promise<void>,
): Promise<WorkspaceExitStatus> {
	const { onStdout, onStderr, signal, cwd } = options;
	const exited = channelExit(channel);
	return new Promise<WorkspaceExitStatus>((resolve, reject) => {
		let header = Buffer.alloc(0);
		let pgid: number | undefined;
		let startError: Error | undefined;
		let paused = false;
		let receivedSinceCheck = false;
		let aborted = false;
		let killing: Promise<void> | undefined;

		const deliver = (handler: WorkspaceSpawnOptions["onStdout"], chunk: Buffer) => {
			receivedSinceCheck = true;
			if (!handler || chunk.length === 0) return;
			const wait = handler(chunk);
			if (!wait || paused) return;
			paused = true;
			channel.pause();
			channel.stderr.pause();
			const resume = () => {
				paused = false;
				channel.resume();
				channel.stderr.resume();
			};
			wait.then(resume, resume);
		};
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
				if (aborted) killing ??= killGroup(pgid);
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

		let drainTimer: NodeJS.Timeout | undefined;
		let busyChecks = 0;
		const checkDrained = () => {
			const busy = paused || (receivedSinceCheck && busyChecks++ < MAX_BUSY_DRAIN_CHECKS);
			receivedSinceCheck = false;
			if (busy) drainTimer = setTimeout(checkDrained, DRAIN_MS);
			else channel.close();
		};
		channel.once("exit", () => {
			receivedSinceCheck = false;
			drainTimer = setTimeout(checkDrained, DRAIN_MS);
		});

		const onAbort = () => {
			aborted = true;
			if (pgid !== undefined) killing ??= killGroup(pgid);
		};
		signal?.addEventListener("abort", onAbort, { once: true });

		exited.then(
			async (exit) => {
				clearTimeout(drainTimer);
				signal?.removeEventListener("abort", onAbort);
				if (startError) return reject(startError);
				if (aborted) {
					await killing?.catch(() => undefined);
					return reject(new Error(ABORTED));
				}
				if (exit.lost) return reject(new Error(`The connection closed before ${file} reported how it ended.`));
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
