import type { AgentSession } from "@gantry/coding-agent";

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT). */
export const ABORTED_EXIT_CODE = 130;

/**
 * While a print or JSON run goes on, the first Ctrl-C (SIGINT) aborts it (a running command is killed,
 * the transcript is kept); a second one exits at once. Returns whether it was interrupted, and the
 * function that stops listening.
 */
export function interruptOnSigint(session: AgentSession): { interrupted(): boolean; stop(): void } {
	let interrupted = false;
	const onSigint = () => {
		if (interrupted) process.exit(ABORTED_EXIT_CODE);
		interrupted = true;
		session.abort();
	};
	process.on("SIGINT", onSigint);
	return { interrupted: () => interrupted, stop: () => process.off("SIGINT", onSigint) };
}
