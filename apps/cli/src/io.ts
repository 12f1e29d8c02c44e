/** The streams and environment the program works with (the process's, unless a test passes others). */
export interface CliIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	env: NodeJS.ProcessEnv;
}

/** The process's streams and environment. */
export function processIo(): CliIo {
	return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}
