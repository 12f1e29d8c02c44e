import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The unprivileged account the tests log in as: a tool that secretly ran locally (as root) is caught. */
export const TEST_USER = "gantry-ssh-test";
const SSHD = "/usr/sbin/sshd";

/** A running OpenSSH server on 127.0.0.1 that accepts `clientKey` for `TEST_USER`. */
export interface TestSshServer {
	host: "127.0.0.1";
	port: number;
	username: string;
	/** The client's private key (OpenSSH format), accepted by the server. */
	clientKey: string;
	/** A private key the server does not accept. */
	strangerKey: string;
	/** The server's public host key line, `ssh-ed25519 AAAA…`. */
	hostKeyLine: string;
	/** The remote user's ids and home. */
	uid: number;
	gid: number;
	home: string;
	/** The folder (on this machine) with the keys and the server's configuration. */
	folder: string;
	/** Makes an empty folder owned by the remote user (on this machine, which is the "remote" host). */
	makeRemoteFolder(): Promise<string>;
	/** Kills the server (the test of a connection lost mid-session). */
	kill(): Promise<void>;
	/** Starts it again on the same port with the same keys. */
	restart(): Promise<void>;
	/** Stops the server and removes its folder. */
	stop(): Promise<void>;
}

/**
 * Starts Debian's sshd (`sshd -D -e -f <config>`) on 127.0.0.1 and a free port with a host key and a
 * client key generated in a temporary folder. Creates `TEST_USER` when it is missing (the tests run
 * as root, locally and in CI) and `/run/sshd`, the privilege separation folder sshd insists on.
 */
export async function startTestSshServer(options: { sftp?: boolean } = {}): Promise<TestSshServer> {
	if (process.getuid?.() !== 0) throw new Error("The SSH tests run as root: they create a user and start sshd.");
	const account = await ensureTestUser();
	await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
	const folder = await mkdtemp(join(tmpdir(), "gantry-sshd-"));
	// sshd reads the authorized keys as the user: the folder must be reachable by them.
	await chmod(folder, 0o755);
	await keygen(join(folder, "host_ed25519"));
	await keygen(join(folder, "client_ed25519"));
	await keygen(join(folder, "stranger_ed25519"));
	const clientPublic = await readFile(join(folder, "client_ed25519.pub"), "utf8");
	await writeFile(join(folder, "authorized_keys"), clientPublic, { mode: 0o644 });
	const hostKeyLine = (await readFile(join(folder, "host_ed25519.pub"), "utf8"))
		.trim()
		.split(" ")
		.slice(0, 2)
		.join(" ");
	const port = await freePort();
	const config = join(folder, "sshd_config");
	await writeFile(
		config,
		[
			`Port ${port}`,
			"ListenAddress 127.0.0.1",
			`HostKey ${join(folder, "host_ed25519")}`,
			`PidFile ${join(folder, "sshd.pid")}`,
			`AuthorizedKeysFile ${join(folder, "authorized_keys")}`,
			"UsePAM no",
			"StrictModes no",
			"PubkeyAuthentication yes",
			"PasswordAuthentication no",
			"KbdInteractiveAuthentication no",
			"PermitRootLogin no",
			`AllowUsers ${TEST_USER}`,
			"AllowAgentForwarding no",
			"X11Forwarding no",
			"UseDNS no",
			"MaxSessions 64",
			"MaxStartups 64",
			options.sftp === false ? "" : "Subsystem sftp internal-sftp",
			"LogLevel ERROR",
			"",
		].join("\n"),
	);
	let daemon = await launch(config, port);
	return {
		host: "127.0.0.1",
		port,
		username: TEST_USER,
		clientKey: await readFile(join(folder, "client_ed25519"), "utf8"),
		strangerKey: await readFile(join(folder, "stranger_ed25519"), "utf8"),
		hostKeyLine,
		uid: account.uid,
		gid: account.gid,
		home: account.home,
		folder,
		async makeRemoteFolder() {
			const made = await mkdtemp(join(tmpdir(), "gantry-remote-"));
			await chown(made, account.uid, account.gid);
			return made;
		},
		async kill() {
			await stopDaemon(daemon, "SIGKILL");
		},
		async restart() {
			await stopDaemon(daemon, "SIGKILL");
			daemon = await launch(config, port);
		},
		async stop() {
			await stopDaemon(daemon, "SIGTERM");
			await rm(folder, { recursive: true, force: true });
		},
	};
}

interface Account {
	uid: number;
	gid: number;
	home: string;
}

async function ensureTestUser(): Promise<Account> {
	let entry = await passwdEntry(TEST_USER);
	if (!entry) {
		try {
			await run("useradd", ["--create-home", "--shell", "/bin/bash", TEST_USER]);
		} catch (error) {
			// Exit code 9: another test file created it at the same moment.
			if ((error as { code?: number }).code !== 9) throw error;
		}
		entry = await passwdEntry(TEST_USER);
		if (!entry) throw new Error(`useradd did not create ${TEST_USER}`);
	}
	// Without PAM, sshd refuses an account whose password field says "locked" ("!"); "*" is no password.
	await run("usermod", ["--password", "*", TEST_USER]);
	await mkdir(entry.home, { recursive: true });
	await chown(entry.home, entry.uid, entry.gid);
	return entry;
}

async function passwdEntry(name: string): Promise<Account | undefined> {
	const passwd = await readFile("/etc/passwd", "utf8");
	for (const line of passwd.split("\n")) {
		const fields = line.split(":");
		const home = fields[5];
		if (fields[0] === name && home !== undefined) return { uid: Number(fields[2]), gid: Number(fields[3]), home };
	}
	return undefined;
}

async function keygen(path: string): Promise<void> {
	await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "gantry-test", "-f", path]);
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** Starts sshd in the foreground and resolves once it listens; rejects with its log when it stops first. */
function launch(config: string, port: number): Promise<ChildProcess> {
	return new Promise((resolve, reject) => {
		// The "listening" line is logged at INFO, which would also log every connection: the port is probed.
		const child = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
		let log = "";
		child.stderr?.on("data", (chunk: Buffer) => {
			log += chunk.toString();
		});
		let stopped = false;
		const fail = (reason: string) => {
			if (stopped) return;
			stopped = true;
			reject(new Error(`sshd did not start (${reason}): ${log.trim() || "no output"}`));
		};
		child.once("error", (error) => fail(error.message));
		child.once("exit", (code, signal) => fail(`exited with ${code ?? signal}`));
		const deadline = Date.now() + 10_000;
		// One probe at a time, so that none is still connecting once sshd is reported ready.
		const check = async () => {
			while (!stopped) {
				if (await probe(port)) {
					stopped = true;
					child.removeAllListeners("exit");
					resolve(child);
					return;
				}
				if (Date.now() > deadline) {
					child.kill("SIGKILL");
					fail("not listening after 10 s");
					return;
				}
				await new Promise((wake) => setTimeout(wake, 25));
			}
		};
		void check();
	});
}

/** Whether something accepts connections on the port; resolves once the probe's socket is closed. */
function probe(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, "127.0.0.1");
		let open = false;
		socket.once("connect", () => {
			open = true;
			socket.destroy();
		});
		socket.once("error", () => undefined);
		socket.once("close", () => resolve(open));
	});
}

/**
 * Stops the listener and every process it started: SIGKILL of the listener alone leaves the per-connection
 * sshd processes (they are in sessions of their own) and so open connections alive.
 */
async function stopDaemon(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	const family = await descendants(child.pid);
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	child.kill(signal);
	for (const pid of family) {
		try {
			process.kill(pid, signal);
		} catch {
			// Already gone.
		}
	}
	await exited;
}

/** The processes below `root`, found through the parent ids in /proc. */
async function descendants(root: number): Promise<number[]> {
	const parents = new Map<number, number>();
	for (const entry of await readdir("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		if (fields.length > 1) parents.set(Number(entry), Number(fields[1]));
	}
	const found: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		const parent = queue.shift();
		for (const [pid, ppid] of parents) {
			if (ppid === parent) {
				found.push(pid);
				queue.push(pid);
			}
		}
	}
	return found;
}
