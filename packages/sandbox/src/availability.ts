import { execFile } from "node:child_process";
import type { WorkspaceProcesses } from "@gantry/tools";

/** The programs a sandbox needs on this machine, found; or why it cannot run here. */
export type Availability =
	| {
			available: true;
			bwrapPath: string;
			socatPath: string;
			bashPath: string;
			/** util-linux's nsenter, when there is one: commands with an allow list share relays through it. */
			nsenterPath?: string;
	  }
	| { available: false; reason: string };

const INSTALL_HINT = "install bubblewrap and socat (Debian/Ubuntu: apt-get install bubblewrap socat)";

function run(file: string, args: string[]): Promise<{ ok: boolean; output: string }> {
	return new Promise((resolve) => {
		execFile(file, args, { timeout: 10_000, encoding: "utf8" }, (error, stdout, stderr) => {
			resolve({ ok: error === null, output: `${stdout}${stderr}`.trim() });
		});
	});
}

/**
 * Whether the OS sandbox's programs are here: Linux (macOS and Windows are not supported yet), `bwrap`,
 * `socat`, `bash` and `rg` on PATH (looked up together). Whether bubblewrap can make its namespaces is
 * `probeBubblewrap`'s question, asked while the sandbox's library loads.
 */
export async function findPrograms(processes: WorkspaceProcesses): Promise<Availability> {
	if (process.platform !== "linux") {
		return {
			available: false,
			reason: `the OS sandbox runs on Linux only for now (this is ${process.platform})`,
		};
	}
	const [bwrapPath, socatPath, bashPath, nsenterPath, ripgrepPath] = await Promise.all([
		processes.which("bwrap"),
		processes.which("socat"),
		processes.which("bash"),
		processes.which("nsenter"),
		processes.which("rg"),
	]);
	if (bwrapPath === undefined)
		return { available: false, reason: `bubblewrap (bwrap) is not on PATH; ${INSTALL_HINT}` };
	if (socatPath === undefined) return { available: false, reason: `socat is not on PATH; ${INSTALL_HINT}` };
	if (bashPath === undefined) return { available: false, reason: "bash is not on PATH" };
	if (ripgrepPath === undefined) {
		return {
			available: false,
			reason:
				"ripgrep (rg) is not on PATH; sandbox-runtime runs it to find the files it protects in the working folder (Debian/Ubuntu: apt-get install ripgrep)",
		};
	}
	return { available: true, bwrapPath, socatPath, bashPath, ...(nsenterPath ? { nsenterPath } : {}) };
}

/**
 * Whether bubblewrap can make the namespaces the sandbox needs: a real, empty sandbox is started, so that a
 * kernel or container without unprivileged user namespaces fails here, not at the first command. Undefined
 * when it can; else why not.
 */
export async function probeBubblewrap(bwrapPath: string, bashPath: string): Promise<string | undefined> {
	const probe = await run(bwrapPath, [
		"--ro-bind",
		"/",
		"/",
		"--dev",
		"/dev",
		"--unshare-net",
		"--unshare-pid",
		"--unshare-user",
		"--proc",
		"/proc",
		"--",
		bashPath,
		"-c",
		"true",
	]);
	if (probe.ok) return undefined;
	return `bubblewrap cannot create a sandbox here (${probe.output || "it failed without a message"}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or a container without them)`;
}
