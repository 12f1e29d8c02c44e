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

/** A word sandbox-runtime leaves bare: nothing in it is special to a shell. */
const BARE_WORD = /^[A-Za-z0-9_./:=@+,-]+$/;

/**
 * The words of `line` when it is written the way sandbox-runtime quotes (each word bare, or in single quotes
 * with a `'` written as `'"'"'`, words separated by one space); undefined for anything else. What a shell
 * could read differently (`$`, a backslash, a glob outside quotes) is never accepted here.
 */
export function splitQuotedWords(line: string): string[] | undefined {
	const words: string[] = [];
	let index = 0;
	while (index < line.length) {
		let word = "";
		let quoted = false;
		while (index < line.length && line[index] !== " ") {
			if (line.startsWith(`"'"`, index)) {
				// The middle of `'"'"'`: the quote before it closed a quoted part, the one after opens the next.
				word += "'";
				index += 3;
				quoted = true;
			} else if (line[index] === "'") {
				const end = line.indexOf("'", index + 1);
				if (end < 0) return undefined;
				word += line.slice(index + 1, end);
				index = end + 1;
				quoted = true;
			} else {
				let end = index;
				while (end < line.length && line[end] !== " " && line[end] !== "'") end++;
				const bare = line.slice(index, end);
				if (!BARE_WORD.test(bare)) return undefined;
				word += bare;
				index = end;
			}
		}
		if (word === "" && !quoted) return undefined;
		words.push(word);
		// One space between words, none at the end.
		if (index < line.length && (++index === line.length || line[index] === " ")) return undefined;
	}
	return words;
}

/**
 * The words of sandbox-runtime's bubblewrap invocation: read here when it is quoted as sandbox-runtime
 * quotes (saving a bash start), else by bash (`splitShellWords`).
 */
export function splitInvocation(bash: string, line: string): Promise<string[]> {
	const words = splitQuotedWords(line);
	return words ? Promise.resolve(words) : splitShellWords(bash, line);
}
