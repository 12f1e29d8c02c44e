import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import {
	createOutputPump,
	type WorkspaceExitStatus,
	type WorkspaceProcesses,
	type WorkspaceSpawnOptions,
} from "@gantry/tools";
import { launcherProgram } from "./launcher-program.js";

/**
 * A workspace's command launcher: one Node process inside the workspace's shared network namespace (entered
 * once, with nsenter) that starts every sandboxed command's bubblewrap there. Entering the namespace per
 * command costs a program start of its own (nsenter: about 4 ms, a fifth of what a sandboxed command cost over
 * an unsandboxed one); the launcher is asked over a Unix socket in the workspace's private folder instead,
 * and the command's output comes back on two more connections to it, read as a local spawn reads its pipes.
 *
 * The launcher is itself started through the inner workspace's processes, so the commands get the
 * environment those give their own (secrets left out), taken when the launcher started, with each spawn's
 * `env` on top; the inner `killAll` ends it and every command it started. Sandboxed commands cannot reach
 * the socket: their seccomp filter refuses Unix sockets (and every connection must start with a token only
 * the launcher was given).
 */
export interface CommandLauncher {
	/** Starts `file args` in the namespace: a `WorkspaceProcesses.spawn` (`inheritedFiles` from fd 3 on). */
	spawn(file: string, args: readonly string[], options: WorkspaceSpawnOptions): Promise<WorkspaceExitStatus>;
	/** Whether it still runs: a launcher that ended (killed with the inner processes) starts nothing. */
	alive(): boolean;
	/** Ends the launcher; every command it started is killed. */
	close(): Promise<void>;
}

/** The launcher could not start the command (it never ran): it can be started another way. */
export class NotLaunched extends Error {}

export interface LauncherSetup {
	inner: WorkspaceProcesses;
	/** nsenter and its arguments, entering the shared network namespace (`NetworkRelays.enter()`). */
	enter: string[];
	cwd: string;
	/** The workspace's private folder: the socket is made there. */
	folder: string;
}

interface Running {
	/** The launcher said it started the command. */
	started: boolean;
	streams(fd: 1 | 2, socket: Socket, first: Buffer): void;
	answered(answer: Answer): void;
}

/** The code of the answer every running command gets when the launcher ends: it may have run, in part. */
const ENDED = "ELAUNCHER";

interface Answer {
	id: number;
	started?: true;
	exitCode?: number | null;
	signal?: NodeJS.Signals | null;
	error?: string;
	code?: string;
}

/** Starts the launcher; resolves once it is connected and has run a first command, or rejects. */
export async function startCommandLauncher(setup: LauncherSetup, timeoutMs = 10_000): Promise<CommandLauncher> {
	const token = randomBytes(16).toString("hex");
	const socketPath = path.join(setup.folder, `launcher-${token.slice(0, 8)}.sock`);
	const running = new Map<number, Running>();
	let control: Socket | undefined;
	let ended = false;
	let connected: () => void = () => undefined;
	const connection = new Promise<void>((resolve) => {
		connected = resolve;
	});

	const server: Server = createServer((socket) => routeConnection(socket));
	function routeConnection(socket: Socket): void {
		let head = Buffer.alloc(0);
		const onData = (data: Buffer) => {
			head = Buffer.concat([head, data]);
			const end = head.indexOf(10);
			if (end < 0) return head.length > 200 ? void socket.destroy() : undefined;
			socket.off("data", onData);
			socket.pause();
			const [first, second, third] = head.subarray(0, end).toString("latin1").split(" ");
			const rest = head.subarray(end + 1);
			if (first === "control" && second === token && control === undefined) {
				control = socket;
				listen(socket, rest);
				connected();
				return;
			}
			const command = first === token ? running.get(Number(second)) : undefined;
			if (command === undefined || (third !== "1" && third !== "2")) return void socket.destroy();
			command.streams(third === "1" ? 1 : 2, socket, rest);
		};
		socket.on("data", onData);
		socket.on("error", () => socket.destroy());
	}

	function listen(socket: Socket, first: Buffer): void {
		let pending = first.toString("utf8");
		const take = (text: string) => {
			pending += text;
			for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
				const answer = parsedAnswer(pending.slice(0, end));
				pending = pending.slice(end + 1);
				if (answer === undefined) return stop();
				const command = running.get(answer.id);
				if (command && answer.started) command.started = true;
				else command?.answered(answer);
			}
		};
		socket.setEncoding("utf8");
		socket.on("data", take);
		socket.once("close", stop);
		socket.resume();
		take("");
	}

	const abort = new AbortController();
	let output = "";
	function stop(): void {
		if (ended) return;
		ended = true;
		abort.abort();
		server.close();
		control?.destroy();
		for (const [id, command] of running) {
			// A command it had not started yet can still be started another way; one it had may have run, in part.
			const error = command.started ? "the sandbox's command launcher ended while the command ran" : "it ended";
			command.answered({ id, error, ...(command.started ? { code: ENDED } : {}) });
		}
		void rm(socketPath, { force: true });
	}

	const [enter, ...enterArgs] = setup.enter;
	if (enter === undefined) throw new Error("no program enters the sandbox's network");
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(socketPath, () => resolve());
	});
	server.on("error", stop);
	const keep = (data: Buffer) => {
		output = `${output}${data.toString()}`.slice(-2000);
		return undefined;
	};
	const launcher = setup.inner.spawn(
		enter,
		[
			...enterArgs,
			process.execPath,
			// A CommonJS script whatever NODE_OPTIONS says: the program loads its modules with `require`.
			"--input-type=commonjs",
			"-e",
			`(${launcherProgram.toString()})(process.argv[1], process.argv[2])`,
			socketPath,
			token,
		],
		{ cwd: setup.cwd, signal: abort.signal, onStdout: keep, onStderr: keep },
	);
	launcher.then(stop, stop);

	let ids = 0;
	const spawn = (file: string, args: readonly string[], options: WorkspaceSpawnOptions) => {
		if (ended || control === undefined) return Promise.reject(new NotLaunched("the sandbox's command launcher ended"));
		return launch(control, running, ++ids, file, args, options);
	};
	const timer = setTimeout(stop, timeoutMs);
	try {
		await Promise.race([connection, launcher]);
		const status = await spawn("true", [], { cwd: setup.cwd });
		if (status.exitCode !== 0) throw new Error(`its first command exited with ${status.exitCode}`);
	} catch (error) {
		stop();
		throw new Error(`the sandbox's command launcher did not start: ${(error as Error).message} ${output.trim()}`);
	} finally {
		clearTimeout(timer);
	}
	if (ended) throw new Error(`the sandbox's command launcher did not start: ${output.trim()}`);
	return {
		spawn,
		alive: () => !ended,
		async close() {
			stop();
			await launcher.catch(() => undefined);
		},
	};
}

/** One command through the launcher: its request, its two output connections, its answer. */
function launch(
	control: Socket,
	running: Map<number, Running>,
	id: number,
	file: string,
	args: readonly string[],
	options: WorkspaceSpawnOptions,
): Promise<WorkspaceExitStatus> {
	const { signal } = options;
	if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
	return new Promise((resolve, reject) => {
		const streams: Socket[] = [];
		let open = 2;
		let answer: Answer | undefined;
		const pump = createOutputPump({
			pause: () => {
				for (const socket of streams) socket.pause();
			},
			resume: () => {
				for (const socket of streams) socket.resume();
			},
			stop: () => {
				for (const socket of streams) socket.destroy();
				open = 0;
				settle();
			},
		});
		const onAbort = () => control.write(`${JSON.stringify({ kill: id })}\n`);
		signal?.addEventListener("abort", onAbort, { once: true });
		const settle = () => {
			if (answer === undefined || (open > 0 && answer.error === undefined)) return;
			running.delete(id);
			pump.dispose();
			signal?.removeEventListener("abort", onAbort);
			for (const socket of streams) socket.destroy();
			if (answer.error !== undefined) {
				const error = answer.code === ENDED ? new Error() : new NotLaunched();
				error.message = `${answer.code === ENDED ? "" : `Could not start ${file}: `}${answer.error}`;
				reject(Object.assign(error, answer.code === undefined ? {} : { code: answer.code }));
			} else if (answer.signal) resolve({ exitCode: null, signal: answer.signal });
			else resolve({ exitCode: answer.exitCode ?? null });
		};
		running.set(id, {
			started: false,
			streams(fd, socket, first) {
				const consumer = fd === 1 ? options.onStdout : options.onStderr;
				streams.push(socket);
				socket.on("data", (chunk: Buffer) => pump.deliver(consumer, chunk));
				socket.once("close", () => {
					open--;
					settle();
				});
				if (first.length > 0) pump.deliver(consumer, first);
				socket.resume();
			},
			answered(given) {
				answer = given;
				if (given.error === undefined) pump.exited();
				settle();
			},
		});
		const { cwd, env = {}, inheritedFiles = [] } = options;
		control.write(`${JSON.stringify({ id, file, args, cwd, env, files: inheritedFiles })}\n`);
	});
}

/** One line the launcher wrote, or undefined when it is not an answer (then the launcher is not trusted on). */
function parsedAnswer(line: string): Answer | undefined {
	try {
		const answer = JSON.parse(line) as Answer | null;
		return typeof answer?.id === "number" ? answer : undefined;
	} catch {
		return undefined;
	}
}
