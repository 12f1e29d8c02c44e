import type { AgentSession, AgentSessionEvent } from "@gantry/coding-agent";
import type { CliIo } from "../io.js";
import { interruptOnSigint } from "./interrupt.js";
import { reportOutcome } from "./print.js";

/** One event as a JSON line; an event that cannot be serialized becomes `{ type, error }`. */
function toJsonLine(event: AgentSessionEvent): string {
	try {
		return JSON.stringify(event);
	} catch (error) {
		return JSON.stringify({ type: event.type, error: `not serializable: ${String(error)}` });
	}
}

/**
 * JSON mode: every session event (nested tool calls' included) as one JSON line on stdout, in order.
 * Exit codes as in print mode; a model error's message also goes to stderr.
 */
export async function runJsonMode(session: AgentSession, prompt: string, io: CliIo): Promise<number> {
	const unsubscribe = session.subscribe((event) => {
		io.stdout.write(`${toJsonLine(event)}\n`);
	});
	const interrupt = interruptOnSigint(session);
	try {
		await session.prompt(prompt);
	} finally {
		interrupt.stop();
		unsubscribe();
	}
	return reportOutcome(session, io, interrupt.interrupted(), () => {});
}
