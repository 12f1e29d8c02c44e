import { execFile } from "node:child_process";

/** `word` quoted for a POSIX shell: single quotes, with each `'` written as `'\''`. */
export function shellQuote(word: string): string {
	return `'${word.replaceAll("'", "'\\''")}'`;
}

/** A command line for `eval "exec …"`: every word quoted. */
export function shellCommandLine(words: readonly string[]): string {
	return words.map(shellQuote).join(" ");
}

/**
 * The words bash reads in `line`, a plain list of (quoted) words as sandbox-runtime writes its bubblewrap
 * invocation: bash itself splits it (`printf '%s\0'`), so nothing here can read a quote differently.
 * Rejects when bash cannot read it.
 */
export function splitShellWords(bash: string, line: string): Promise<string[]> {
	return new Promise((resolve, reject) => {
		execFile(
			bash,
			["--norc", "--noprofile", "-c", `printf '%s\\0' ${line}`],
			{ encoding: "buffer", maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
			(error, stdout) => {
				if (error) reject(error);
				else resolve(stdout.toString("utf8").split("\0").slice(0, -1));
			},
		);
	});
}
