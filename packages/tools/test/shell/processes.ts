// Finds this user's living processes by a token in their command line (Linux /proc), for tests that
// check that no process a command started survives.
import { readdir, readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/** Pids of living (not zombie) processes whose command line contains `token`. */
export async function processesWith(token: string): Promise<number[]> {
	const found: number[] = [];
	for (const entry of await readdir("/proc")) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		const commandLine = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
		if (!commandLine.split("\0").some((part) => part.includes(token))) continue;
		const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
		const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
		if (state !== "" && state !== "Z" && state !== "X") found.push(Number(entry));
	}
	return found;
}

/** Waits until a process with `token` runs (the command got that far). */
export async function waitForProcess(token: string, limitMs = 10_000): Promise<void> {
	const deadline = Date.now() + limitMs;
	while ((await processesWith(token)).length === 0) {
		if (Date.now() > deadline) throw new Error(`No process with ${token} started within ${limitMs} ms`);
		await sleep(20);
	}
}

/** A `sleep` duration no other process uses, to find the sleeper again: `300.<random digits>`. */
export function uniqueSleep(): string {
	return `300.${String(Math.random()).slice(2, 10)}`;
}

/** Kills leftovers so a failing test does not leave sleepers behind. */
export async function killAll(token: string): Promise<void> {
	for (const pid of await processesWith(token)) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// Already gone.
		}
	}
}
