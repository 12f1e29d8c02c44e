/**
 * The program of a workspace's command launcher (see `command-launcher.ts`): a Node process that lives in the
 * workspace's shared network namespace and starts each sandboxed command's bubblewrap there, so a command
 * starts with no nsenter of its own. It is started as `node -e <this function's text> <socket> <token>`,
 * which is why it is one self-contained function that loads what it needs with `require`.
 *
 * It connects to the socket, says `control <token>`, then reads one JSON request per line:
 * - `{ id, file, args, cwd, env, files }`: connects twice more (`<token> <id> 1` and `… 2`), starts `file`
 *   as the leader of a new process group with those connections as its stdout and stderr, stdin ignored, the
 *   launcher's environment with `env` over it, and `files` opened for reading from fd 3 on; answers
 *   `{ id, started: true }` once it runs and `{ id, exitCode, signal }` when it exits, or `{ id, error, code }`
 *   when it could not start.
 * - `{ kill: id }`: SIGTERM to that command's group, SIGKILL half a second later if it still runs.
 * When the socket closes, it kills every command it started and exits.
 */
export function launcherProgram(socketPath: string, token: string): void {
	const { spawn } = require("node:child_process") as typeof import("node:child_process");
	const { closeSync, openSync } = require("node:fs") as typeof import("node:fs");
	const net = require("node:net") as typeof import("node:net");
	type Request = {
		id: number;
		file: string;
		args: string[];
		cwd: string;
		env: Record<string, string>;
		files: string[];
	};

	const running = new Map<number, number>();
	const control = net.connect(socketPath);
	const answer = (message: object) => control.write(`${JSON.stringify(message)}\n`);
	const stream = (id: number, fd: number) =>
		new Promise<import("node:net").Socket>((resolve, reject) => {
			const socket = net.connect(socketPath, () => socket.write(`${token} ${id} ${fd}\n`, () => resolve(socket)));
			socket.once("error", reject);
		});
	const killGroup = (pid: number, signal: NodeJS.Signals) => {
		try {
			process.kill(-pid, signal);
		} catch {
			// Ended already.
		}
	};

	async function start(request: Request): Promise<void> {
		const { id } = request;
		let streams: import("node:net").Socket[] = [];
		const descriptors: number[] = [];
		try {
			const connections = await Promise.allSettled([stream(id, 1), stream(id, 2)]);
			streams = connections.flatMap((connection) => (connection.status === "fulfilled" ? [connection.value] : []));
			if (streams.length < 2) throw new Error("its output could not be connected");
			for (const file of request.files) descriptors.push(openSync(file, "r"));
			const child = spawn(request.file, request.args, {
				cwd: request.cwd,
				env: { ...process.env, ...request.env },
				detached: true,
				stdio: ["ignore", ...streams, ...descriptors],
			});
			child.once("error", (error: NodeJS.ErrnoException) => answer({ id, error: error.message, code: error.code }));
			if (child.pid === undefined) return;
			const pid = child.pid;
			running.set(id, pid);
			answer({ id, started: true });
			child.once("exit", (exitCode, signal) => {
				running.delete(id);
				answer({ id, exitCode, signal });
			});
		} catch (error) {
			answer({ id, error: String((error as Error).message ?? error) });
		} finally {
			// The command holds its own copies; the launcher's would keep its output open after it ended.
			for (const socket of streams) socket.destroy();
			for (const descriptor of descriptors) closeSync(descriptor);
		}
	}

	let pending = "";
	control.setEncoding("utf8");
	control.write(`control ${token}\n`);
	control.on("data", (data: string) => {
		pending += data;
		for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
			const message = JSON.parse(pending.slice(0, end)) as Request | { kill: number };
			pending = pending.slice(end + 1);
			if ("kill" in message) {
				const pid = running.get(message.kill);
				if (pid === undefined) continue;
				killGroup(pid, "SIGTERM");
				setTimeout(() => running.get(message.kill) === pid && killGroup(pid, "SIGKILL"), 500).unref();
			} else void start(message);
		}
	});
	const end = () => {
		for (const pid of running.values()) killGroup(pid, "SIGKILL");
		process.exit(0);
	};
	control.on("close", end);
	control.on("error", end);
}
