import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** How long processes get to exit after SIGTERM before they are sent SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 500;
/** How long to wait for the processes to be gone after SIGKILL. */
const KILL_WAIT_MS = 2000;
const POLL_MS = 10;

/**
 * The environment variable every local process carries: `<workspace id>.<call number>`. A process that
 * left the command's process group (`setsid`, a double fork) still inherits it, so it is found by it.
 */
export const CALL_MARKER_VARIABLE = "GANTRY_CALL_ID";

export interface KillProcessTreeOptions {
	/** Milliseconds between SIGTERM and SIGKILL. Default `DEFAULT_KILL_GRACE_MS`. */
	graceMs?: number;
	/**
	 * Also kill every process of this user whose environment holds `GANTRY_CALL_ID=<marker>` (exactly, or
	 * starting with `<marker>.` when `markerIsPrefix`). Linux only (it reads `/proc/<pid>/environ`).
	 */
	marker?: string;
	markerIsPrefix?: boolean;
}

/**
 * Kills a process started as the leader of its own process group (`detached: true`) with every process
 * of that group and, on Linux, every process carrying the call's marker (those that escaped the group
 * with `setsid`): SIGTERM first, SIGKILL after `graceMs`, then waits until they are gone (or a short
 * reaping limit passed). Pass `pid` undefined to kill by marker alone. On Windows the tree is killed
 * with `taskkill /T /F`. Never rejects.
 */
export async function killProcessTree(pid: number | undefined, options: KillProcessTreeOptions = {}): Promise<void> {
	if (process.platform === "win32") {
		if (pid === undefined) return;
		await new Promise<void>((resolve) => {
			execFile("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true }, () => resolve());
		});
		return;
	}
	// The environment scan runs before each signal (it also catches processes forked meanwhile); in
	// between only the processes found are watched.
	let marked = markedProcesses(options);
	if (!signalAll(pid, marked, "SIGTERM")) return;
	if (await waitUntilGone(pid, marked, options.graceMs ?? DEFAULT_KILL_GRACE_MS)) {
		marked = markedProcesses(options);
		if (marked.length === 0) return;
	} else {
		marked = markedProcesses(options);
	}
	signalAll(pid, marked, "SIGKILL");
	await waitUntilGone(pid, marked, KILL_WAIT_MS);
}

/**
 * After a command ended by itself: kills what it left running (`cmd &` still in its group, `setsid` and
 * double forks carrying its marker), and returns at once when nothing is left — the common case, checked
 * without reading the whole process table: the group is probed with signal 0, and only the processes
 * created since the command started — ids above its own up to the newest (`/proc/loadavg`'s last field; ids
 * grow until they wrap at `pid_max`, which is followed) — are looked at for the marker. Never rejects.
 */
export async function killLeftovers(pid: number, options: KillProcessTreeOptions = {}): Promise<void> {
	if (process.platform === "win32") return;
	const groupLeft = sendSignal(-pid, 0);
	if (!groupLeft && markedAfter(pid, options).length === 0) return;
	await killProcessTree(pid, options);
}

/** The living processes created after `pid` whose environment carries the marker. */
function markedAfter(pid: number, options: KillProcessTreeOptions): number[] {
	if (process.platform !== "linux" || options.marker === undefined) return [];
	let entries: string[];
	let newest: number;
	try {
		entries = readdirSync("/proc");
		newest = Number(readFileSync("/proc/loadavg", "latin1").trim().split(" ").at(-1));
	} catch {
		return [];
	}
	// Ids handed out since `pid`: (pid, newest], or, when the counter wrapped, above pid and up to newest.
	const created = (candidate: number) =>
		!Number.isInteger(newest) ||
		(newest >= pid ? candidate > pid && candidate <= newest : candidate > pid || candidate <= newest);
	const found: number[] = [];
	for (const entry of entries) {
		const candidate = Number(entry);
		if (!Number.isInteger(candidate) || !created(candidate) || candidate === process.pid) continue;
		if (hasMarker(readProc(candidate, "environ"), options) && isAlive(candidate)) found.push(candidate);
	}
	return found;
}

/** Whether an environment block (`/proc/<pid>/environ`) holds the marker of `options`. */
function hasMarker(environ: string, options: KillProcessTreeOptions): boolean {
	if (environ === "" || options.marker === undefined) return false;
	const exact = `${CALL_MARKER_VARIABLE}=${options.marker}`;
	for (const variable of environ.split("\0")) {
		if (variable === exact || (options.markerIsPrefix === true && variable.startsWith(`${exact}.`))) return true;
	}
	return false;
}

/** Sends `signal` to the group and the marked processes; false when none of them exists. */
function signalAll(pgid: number | undefined, marked: number[], signal: NodeJS.Signals): boolean {
	let any = pgid !== undefined && sendSignal(-pgid, signal);
	for (const pid of marked) if (sendSignal(pid, signal)) any = true;
	return any;
}

/** Sends `signal` to a process (or a group, for a negative id); false when it no longer exists. */
function sendSignal(target: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(target, signal);
		return true;
	} catch {
		// ESRCH: gone. EPERM: the id now belongs to someone else.
		return false;
	}
}

async function waitUntilGone(pgid: number | undefined, marked: number[], limitMs: number): Promise<boolean> {
	const deadline = Date.now() + limitMs;
	while ((pgid !== undefined && groupIsAlive(pgid)) || marked.some(isAlive)) {
		if (Date.now() >= deadline) return false;
		await sleep(POLL_MS);
	}
	return true;
}

/** Whether the process runs (a zombie waiting for its parent does not count). */
function isAlive(pid: number): boolean {
	if (!sendSignal(pid, 0)) return false;
	if (process.platform !== "linux") return true;
	return isLiving(stateOf(stateFields(readProc(pid, "stat"))));
}

/** A file of `/proc/<pid>/`, or "" when it cannot be read. Synchronous: /proc is memory, not disk. */
function readProc(pid: number | string, name: "stat" | "environ"): string {
	try {
		return readFileSync(`/proc/${pid}/${name}`, name === "environ" ? "latin1" : "utf8");
	} catch {
		return "";
	}
}

/** The fields of a `/proc/<pid>/stat` line after "pid (comm)": state, ppid, pgrp, … (comm may hold spaces). */
function stateFields(stat: string): string[] {
	return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The state letter among the fields of `stateFields` (empty for an unreadable line). */
function stateOf(fields: readonly string[]): string {
	// `split` always gives at least one field, so the state is there.
	return fields[0] ?? "";
}

interface ProcessEntry {
	pid: number;
	state: string;
	pgrp: number;
	/** Start time, in clock ticks since boot. */
	start: number;
}

/** The processes of `/proc`, with their state, process group and start time. */
function processTable(): ProcessEntry[] {
	let entries: string[];
	try {
		entries = readdirSync("/proc");
	} catch {
		return [];
	}
	const table: ProcessEntry[] = [];
	for (const entry of entries) {
		if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
		const stat = readProc(entry, "stat");
		if (stat === "") continue;
		const fields = stateFields(stat);
		table.push({ pid: Number(entry), state: stateOf(fields), pgrp: Number(fields[2]), start: Number(fields[19]) });
	}
	return table;
}

function isLiving(state: string): boolean {
	return state !== "Z" && state !== "X";
}

/**
 * True while a process of the group still runs. Killed processes stay members until their parent reaps
 * them, and orphans wait for init, which can take seconds in a container; on Linux such zombies are
 * found in /proc and do not count.
 */
function groupIsAlive(pgid: number): boolean {
	if (!sendSignal(-pgid, 0)) return false;
	if (process.platform !== "linux") return true;
	const table = processTable();
	if (table.length === 0) return true;
	return table.some((entry) => entry.pgrp === pgid && isLiving(entry.state));
}

/** When this process started, in clock ticks since boot (read once). */
let ownStart: number | undefined;

/** The living processes whose environment carries the marker (only this user's are readable). */
function markedProcesses(options: KillProcessTreeOptions): number[] {
	if (process.platform !== "linux" || options.marker === undefined) return [];
	const found: number[] = [];
	// Only processes started after this one can descend from it: older ones are not read at all.
	ownStart ??= Number(stateFields(readProc("self", "stat"))[19]) || 0;
	for (const entry of processTable()) {
		if (entry.pid === process.pid || entry.start < ownStart || !isLiving(entry.state)) continue;
		if (hasMarker(readProc(entry.pid, "environ"), options)) found.push(entry.pid);
	}
	return found;
}
