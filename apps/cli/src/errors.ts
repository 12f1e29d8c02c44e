import { GantryError } from "@gantry/ai";

/**
 * What went wrong before a session could run:
 * - `usage`: an unknown option, a bad value or a missing argument (exit code 2);
 * - `missing_api_key`: the provider needs a key and none was given (exit code 1);
 * - `extension_failed`: an `-e` extension could not be loaded (exit code 1);
 * - `session_failed`: the session could not be created, e.g. an unreadable session file (exit code 1);
 * - `ssh_failed`: `--ssh` could not connect or prepare the remote folder (exit code 1).
 */
export type CliErrorCode = "usage" | "missing_api_key" | "extension_failed" | "session_failed" | "ssh_failed";

/** A one-line error for the person at the terminal, with the exit code it ends the program with. */
export class CliError extends GantryError<CliErrorCode> {
	readonly exitCode: number;

	constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = "CliError";
		this.exitCode = code === "usage" ? 2 : 1;
	}
}

/** A usage error (exit code 2) whose message ends with a pointer to `--help`. */
export function usageError(message: string): CliError {
	return new CliError("usage", `${message} (see gantry --help)`);
}
