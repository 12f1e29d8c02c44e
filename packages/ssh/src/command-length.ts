/**
 * Most bytes of one remote command line. The SSH server hands the whole line to the user's shell as one
 * argument (`$SHELL -c <line>`), and Linux caps one argument at 128 KiB with its closing NUL
 * (MAX_ARG_STRLEN): a longer line fails on the host before anything runs ("Argument list too long").
 */
export const MAX_REMOTE_COMMAND_BYTES = 128 * 1024 - 1;

/**
 * Throws, before anything is sent, when `command` (the line that would start `file`) is longer than the
 * host takes: an `E2BIG` error, as a local spawn gives, that names the size, the limit and what to do.
 */
export function checkRemoteCommandLength(file: string, command: string): void {
	const bytes = Buffer.byteLength(command, "utf8");
	if (bytes <= MAX_REMOTE_COMMAND_BYTES) return;
	const message =
		`Could not start ${file}: its command line is too long for the host, ${bytes} bytes with the arguments ` +
		`quoted for the remote shell, while an SSH command takes at most ${MAX_REMOTE_COMMAND_BYTES} bytes (the ` +
		"host's shell gets it as one argument, which Linux caps at 128 KiB). Pass long input in a file instead: " +
		"write it with workspace.fs and give the program the file's path.";
	throw Object.assign(new Error(message), { code: "E2BIG" });
}
