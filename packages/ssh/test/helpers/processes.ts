import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The live (not zombie) processes on this machine whose command line contains `marker`: "STAT UID ARGS" lines. */
export async function processesWith(marker: string): Promise<string[]> {
	const { stdout } = await run("ps", ["-eo", "stat=,uid=,args="]);
	return stdout
		.split("\n")
		.filter((line) => line.includes(marker) && !line.trim().startsWith("Z") && !line.includes("ps -eo"));
}

/** A `sleep` argument no other test uses: `30.<unique digits>`. */
export function uniqueSleep(): string {
	return `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}
