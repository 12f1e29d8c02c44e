import { errorCode } from "../error-text.js";

/**
 * Most bytes of a command the bash and powershell tools hand to their shell. The command travels as one
 * argument (`bash -c <command>`), which Linux caps at 128 KiB (MAX_ARG_STRLEN); over SSH the whole
 * remote command line, wrapper and quoting included, is one argument of that size. 8 KiB below the cap
 * leaves room for that wrapper, so a command is turned away alike on both.
 */
export const MAX_SHELL_COMMAND_BYTES = 120 * 1024;

/** The words of the errors: which tool, and how to run a script file in its shell. */
export interface ShellCommandLimit {
	/** Tool label, e.g. `"bash"`. */
	label: string;
	/** A command that runs a saved script, e.g. `"bash script.sh"`. */
	runFile: string;
}

function fixHint({ runFile }: ShellCommandLimit): string {
	return `Save the script with the write tool and run the file instead (e.g. \`${runFile}\`); keep large data in files too.`;
}

/** Throws when `command` is longer than `MAX_SHELL_COMMAND_BYTES`: the size, the limit and what to do. */
export function checkShellCommandLength(command: string, limit: ShellCommandLimit): void {
	const bytes = Buffer.byteLength(command, "utf8");
	if (bytes <= MAX_SHELL_COMMAND_BYTES) return;
	throw new Error(
		`"command" is too long: ${bytes} bytes, while the ${limit.label} tool takes at most ${MAX_SHELL_COMMAND_BYTES} ` +
			`bytes (the shell gets the command as one argument, which Linux caps at 128 KiB). ${fixHint(limit)}`,
	);
}

/**
 * The tool's error for a command the host refused to start because its command line was too long
 * (`E2BIG`; `ENAMETOOLONG` on Windows, whose limit is 32,767 characters), or undefined for any other error.
 */
export function commandTooLongForHost(command: string, error: unknown, limit: ShellCommandLimit): Error | undefined {
	const code = errorCode(error);
	if (code !== "E2BIG" && code !== "ENAMETOOLONG") return undefined;
	const bytes = Buffer.byteLength(command, "utf8");
	const message =
		`"command" is too long for the host's command line: ${bytes} bytes, and the host refused to start ` +
		`${limit.label} with it (${code}). ${fixHint(limit)}`;
	return Object.assign(new Error(message, { cause: error }), { code });
}
