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

/** Everything on stdin, as text (for `echo "prompt" | gantry`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
	return Buffer.concat(chunks).toString("utf8");
}
