import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { promisify } from "node:util";
import { shellQuote } from "./shell-words.js";

/**
 * The network a workspace's commands share when it allows hosts: one network namespace, made once per
 * workspace, in which two socat relays listen on 127.0.0.1:3128 and :1080 and pass each connection to
 * sandbox-runtime's proxy through its host-side bridge sockets. sandbox-runtime starts both relays inside
 * every command's sandbox and waits for them to listen (most of a command's time); here a command starts
 * nothing: the workspace's command launcher (`command-launcher.ts`), which entered the namespace once, starts
 * it there, and until the launcher runs (or where it cannot) the command enters it with nsenter.
 *
 * The namespace holds nothing but the loopback device: no route out, so the proxy is the only way to any
 * host. It is reachable only by processes that enter it, which takes this user's rights over the holder
 * process (a same-user process could already reach the bridge sockets, which are in the temp folder). The
 * commands of one workspace share its loopback, as threads of one session share a machine; commands of
 * other workspaces and processes do not.
 */
export interface NetworkRelays {
	/** The program and arguments that run the rest of a command line inside the namespace. */
	enter(): string[];
	/** Whether the relays still run (`enter` throws once they do not). */
	alive(): boolean;
	/** Ends the relays; commands entering afterwards would fail, so call it after the last. */
	close(): void;
}

/** The ports sandbox-runtime's proxy variables name (`HTTP_PROXY=…@localhost:3128`, `ALL_PROXY` …:1080). */
const HTTP_PORT = 3128;
const SOCKS_PORT = 1080;

export interface RelaySetup {
	bwrapPath: string;
	socatPath: string;
	nsenterPath: string;
	httpSocketPath: string;
	socksSocketPath: string;
}

/** The shell line that runs one relay: IPv6 with IPv4 mapped in where the kernel has IPv6, else IPv4. */
function relayLine(socat: string, port: number, socketPath: string): string {
	const options = "fork,reuseaddr,backlog=4096";
	const target = `UNIX-CONNECT:${socketPath}`;
	return `{ ${socat} TCP6-LISTEN:${port},ipv6only=0,${options} ${shellQuote(target)} || exec ${socat} TCP4-LISTEN:${port},${options} ${shellQuote(target)}; } &`;
}

/** Whether something listens on `port` in the network namespace of process `pid` (from its /proc tables). */
function listening(pid: number, port: number): boolean {
	const local = `:${port.toString(16).toUpperCase().padStart(4, "0")} `;
	for (const table of ["tcp6", "tcp"]) {
		let text: string;
		try {
			text = readFileSync(`/proc/${pid}/net/${table}`, "utf8");
		} catch {
			continue;
		}
		// Columns: sl, local address, remote address, state (0A is LISTEN).
		for (const line of text.split("\n").slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields[3] === "0A" && `${fields[1]} `.endsWith(local)) return true;
		}
	}
	return false;
}

function namespaceOf(pid: number, kind: "net" | "user"): string {
	return readlinkSync(`/proc/${pid}/ns/${kind}`);
}

/**
 * Starts the namespace and its relays and resolves once both listen. The holder is a bubblewrap sandbox of
 * its own (a new user, network and PID namespace, ended with this process), whose first process's
 * namespaces the commands enter; only one user namespace is made (no `--dev`, which would make bubblewrap
 * nest a second one the network namespace does not belong to).
 */
export async function startNetworkRelays(setup: RelaySetup, timeoutMs = 10_000): Promise<NetworkRelays> {
	const socat = shellQuote(setup.socatPath);
	const script = [
		relayLine(socat, HTTP_PORT, setup.httpSocketPath),
		relayLine(socat, SOCKS_PORT, setup.socksSocketPath),
		"wait",
	].join("\n");
	const sockets = [...new Set([setup.httpSocketPath, setup.socksSocketPath])];
	const child = spawn(
		setup.bwrapPath,
		[
			"--unshare-user",
			"--unshare-net",
			"--unshare-pid",
			"--die-with-parent",
			"--new-session",
			"--ro-bind",
			"/",
			"/",
			"--dev-bind",
			"/dev",
			"/dev",
			...sockets.flatMap((socket) => ["--bind", socket, socket]),
			"--info-fd",
			"3",
			"--",
			"/bin/sh",
			"-c",
			script,
		],
		{ stdio: ["ignore", "ignore", "pipe", "pipe"] },
	);
	const holder = await holderPid(child, timeoutMs);
	const identity = { net: namespaceOf(holder, "net"), user: namespaceOf(holder, "user") };
	const deadline = Date.now() + timeoutMs;
	while (!(listening(holder, HTTP_PORT) && listening(holder, SOCKS_PORT))) {
		if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
			child.kill("SIGKILL");
			throw new Error("the sandbox's network relays did not start listening");
		}
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
	let closed = false;
	// The holder's process id is entered by path: it must still be the holder (not ended, its number not given
	// to another process), or a command could land in another network.
	const alive = () => {
		if (closed || child.exitCode !== null || child.signalCode !== null) return false;
		try {
			return namespaceOf(holder, "net") === identity.net && namespaceOf(holder, "user") === identity.user;
		} catch {
			return false;
		}
	};
	return {
		alive,
		enter() {
			if (!alive()) throw new Error("the sandbox's network relays have ended; the command is not started");
			return [
				setup.nsenterPath,
				`--user=/proc/${holder}/ns/user`,
				`--net=/proc/${holder}/ns/net`,
				"--preserve-credentials",
				"--",
			];
		},
		close() {
			closed = true;
			child.kill("SIGKILL");
		},
	};
}

/**
 * The relays, once it is seen that a command can enter their namespace (nsenter may be refused where
 * bubblewrap is not); undefined when they cannot start or be entered, and commands start their own relays
 * as sandbox-runtime makes them.
 */
export async function enterableRelays(setup: RelaySetup): Promise<NetworkRelays | undefined> {
	let relays: NetworkRelays | undefined;
	try {
		relays = await startNetworkRelays(setup);
		const [enter, ...enterArgs] = relays.enter() as [string, ...string[]];
		await promisify(execFile)(enter, [...enterArgs, "/bin/true"], { timeout: 10_000 });
		return relays;
	} catch {
		relays?.close();
		return undefined;
	}
}

/** The host process id of the holder sandbox's first process, from bubblewrap's `--info-fd` report. */
function holderPid(child: ChildProcess, timeoutMs: number): Promise<number> {
	return new Promise((resolve, reject) => {
		let info = "";
		let errors = "";
		const timer = setTimeout(() => fail("it did not report its process"), timeoutMs);
		const fail = (why: string) => {
			clearTimeout(timer);
			child.kill("SIGKILL");
			reject(new Error(`the sandbox's network namespace could not start (${why}): ${errors.trim()}`));
		};
		child.stderr?.on("data", (data: Buffer) => {
			errors += data.toString();
		});
		child.on("error", (error) => fail(error.message));
		const report = child.stdio[3];
		if (!report) return fail("no report pipe");
		report.on("data", (data: Buffer) => {
			info += data.toString();
		});
		report.on("end", () => {
			clearTimeout(timer);
			const pid = Number((/"child-pid":\s*(\d+)/.exec(info) ?? [])[1]);
			if (Number.isInteger(pid) && pid > 0) resolve(pid);
			else fail("no process in its report");
		});
	});
}

/** The workspace's relays for the bridge sockets of sandbox-runtime's manager (see `enterableRelays`). */
export function relaysFor(
	bridges: { http: string | undefined; socks: string | undefined },
	programs: { bwrapPath: string; socatPath: string; nsenterPath: string },
): Promise<NetworkRelays | undefined> {
	if (!bridges.http || !bridges.socks) return Promise.resolve(undefined);
	return enterableRelays({ ...programs, httpSocketPath: bridges.http, socksSocketPath: bridges.socks });
}
