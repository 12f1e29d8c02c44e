import { posix } from "node:path";
import type { Workspace } from "@gantry/tools";
import { credentialsOf, SshConnection } from "./connection.js";
import { SshError } from "./errors.js";
import { prepareHostKeyCheck } from "./host-key.js";
import type { SshWorkspaceOptions } from "./options.js";
import { shellQuote } from "./quote.js";
import { execCollect } from "./remote-exec.js";
import { createRemoteFileSystem } from "./remote-fs.js";
import { createRemoteGlob } from "./remote-glob.js";
import { createRemoteProcesses, type RemoteProcesses } from "./remote-processes.js";

/** A `Workspace` on another host over one SSH connection. */
export interface SshWorkspace extends Workspace {
	/** The host's processes; `killAll()` ends every process the workspace's commands started that still runs. */
	readonly processes: RemoteProcesses;
	/**
	 * Kills what the workspace's commands left running, removes the temp folder it made, and closes the
	 * connection. Later operations fail. Idempotent.
	 */
	close(): Promise<void>;
}

/**
 * Connects to the host and returns a `Workspace` whose files (SFTP) and processes (exec channels) are
 * there, all over one connection. Rejects within 10 s with an `SshError` naming the cause: refused or
 * unreachable port, unknown or changed host key, rejected credentials, missing `cwd`.
 *
 * @example
 * const workspace = await createSshWorkspace({ host: "devbox", username: "me", privateKey, cwd: "~/project" });
 * const tools = createAllToolDefinitions(workspace);
 */
export async function createSshWorkspace(options: SshWorkspaceOptions): Promise<SshWorkspace> {
	const port = options.port ?? 22;
	if (!options.host) throw new SshError("invalid_options", "host is missing: give the host name or address.");
	if (!options.username) throw new SshError("invalid_options", "username is missing: give the account to log in as.");
	if (!Number.isInteger(port) || port < 1 || port > 65_535) {
		throw new SshError("invalid_options", `port ${port} is not a TCP port (1 to 65535).`);
	}
	if (!options.privateKey && !options.password && !options.agent) {
		throw new SshError(
			"invalid_options",
			"No credential: give privateKey, password or agent (an ssh-agent socket path).",
		);
	}
	if (!options.cwd) throw new SshError("invalid_options", "cwd is missing: give the working folder on the host.");
	const hostKey = await prepareHostKeyCheck(options.hostKey, options.host, port);
	const connection = new SshConnection({
		host: options.host,
		port,
		username: options.username,
		...credentialsOf(options),
		hostKey,
	});
	await connection.open();
	try {
		return await prepare(connection, options);
	} catch (error) {
		await connection.close();
		throw error;
	}
}

async function prepare(connection: SshConnection, options: SshWorkspaceOptions): Promise<SshWorkspace> {
	const probe = await connection.use((live) =>
		execCollect(
			live.client,
			[
				`printf 'home=%s\\n' "$HOME"`,
				`printf 'uid=%s\\n' "$(id -u)"`,
				`printf 'gids=%s\\n' "$(id -G)"`,
				`printf 'rg=%s\\n' "$(command -v rg 2>/dev/null)"`,
				options.tempDir ? "" : `printf 'temp=%s\\n' "$(mktemp -d "\${TMPDIR:-/tmp}/gantry-XXXXXX")"`,
			].join("; "),
		),
	);
	const facts = new Map(
		probe.stdout
			.split("\n")
			.filter((line) => line.includes("="))
			.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
	);
	const home = facts.get("home") || "/";
	const expand = (path: string) =>
		path === "~" ? home : path.startsWith("~/") ? posix.join(home, path.slice(2)) : posix.resolve(home, path);
	const cwd = expand(options.cwd);
	const identity = {
		uid: Number(facts.get("uid") ?? Number.NaN),
		gids: (facts.get("gids") ?? "").split(/\s+/).filter(Boolean).map(Number),
	};
	const fs = createRemoteFileSystem(connection, identity);
	const processes = createRemoteProcesses(connection);
	const label = connection.label;

	const cwdInfo = await fs.stat(cwd);
	if (cwdInfo?.kind !== "directory") {
		throw new SshError(
			"remote_setup_failed",
			`The working folder ${cwd} ${cwdInfo ? "is not a folder" : "does not exist"} on ${label}: give an existing folder as cwd.`,
		);
	}
	let tempDir = facts.get("temp") ?? "";
	const ownsTempDir = !options.tempDir;
	if (options.tempDir) {
		tempDir = expand(options.tempDir);
		await fs.mkdir(tempDir).catch((error: Error) => {
			throw new SshError(
				"remote_setup_failed",
				`Cannot create the temp folder ${tempDir} on ${label}: ${error.message}`,
				{
					cause: error,
				},
			);
		});
	} else if (!tempDir.startsWith("/")) {
		throw new SshError(
			"remote_setup_failed",
			`mktemp -d failed on ${label}: ${probe.stderr.trim() || "no folder made"}. Pass tempDir to name a writable folder.`,
		);
	}

	const rg = facts.get("rg");
	let closed = false;
	const workspace: SshWorkspace = {
		cwd,
		home,
		tempDir,
		label,
		isLocal: false,
		fs,
		processes,
		resolvePath(path) {
			if (path === "~") return home;
			if (path.startsWith("~/")) return posix.join(home, path.slice(2));
			return posix.resolve(cwd, path);
		},
		...(rg?.startsWith("/") ? { glob: createRemoteGlob(processes, rg) } : {}),
		async close() {
			if (closed) return;
			closed = true;
			// Tidying up is skipped when the connection is gone: close() must not wait for a reconnect.
			if (connection.isLive) {
				await processes.killAll();
				if (ownsTempDir) {
					await connection
						.use((live) => execCollect(live.client, `rm -rf -- ${shellQuote(tempDir)}`))
						.catch(() => undefined);
				}
			}
			await connection.close();
		},
	};
	return workspace;
}
