import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/** How long processes get to exit after SIGTERM before the group is sent SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 500;
/** How long to wait for the group to be gone after SIGKILL. */
const KILL_WAIT_MS = 2000;
const POLL_MS = 10;

export interface KillProcessTreeOptions {
	/** Milliseconds between SIGTERM and SIGKILL. Default `DEFAULT_KILL_GRACE_MS`. */
	graceMs?: number;
}

/**
 * Kills a process started as the leader of its own process group (`detached: true`) together with every
 * process in that group: SIGTERM first, SIGKILL after `graceMs`, then waits until the group is gone (or
 * a short reaping limit passed). On Windows the tree is killed with `taskkill /T /F`. Never rejects.
 */
export async function killProcessTree(pid: number, options: KillProcessTreeOptions = {}): Promise<void> {
	if (process.platform === "win32") {
		await new Promise<void>((resolve) => {
			execFile("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true }, () => resolve());
		});
		return;
	}
	if (!signalGroup(pid, "SIGTERM")) return;
	if (await waitForGroupExit(pid, options.graceMs ?? DEFAULT_KILL_GRACE_MS)) return;
	signalGroup(pid, "SIGKILL");
	await waitForGroupExit(pid, KILL_WAIT_MS);
}

/** Sends `signal` to the whole group; false when the group no longer exists. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		// ESRCH: nothing left in the group. EPERM: the id now belongs to someone else's group.
		return false;
	}
}

async function waitForGroupExit(pid: number, limitMs: number): Promise<boolean> {
	const deadline = Date.now() + limitMs;
	while (await groupIsAlive(pid)) {
		if (Date.now() >= deadline) return false;
		await sleep(POLL_MS);
	}
	return true;
}

/**
 * True while a process of the group still runs. Killed processes stay members until their parent reaps
 * them, and orphans wait for init, which can take seconds in a container; on Linux such zombies are
 * found in /proc and do not count.
 */
async function groupIsAlive(pgid: number): Promise<boolean> {
	if (!signalGroup(pgid, 0)) return false;
	if (process.platform !== "linux") return true;
	let entries: string[];
	try {
		entries = await readdir("/proc");
	} catch {
		return true;
	}
	for (const entry of entries) {
		if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
		const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
		// "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
	}
	return false;
}
