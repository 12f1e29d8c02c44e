import type { AgentSession } from "@gantry/coding-agent";
import type { CliIo } from "../io.js";
import { describeModelError } from "../model-errors.js";
import { frameDefinitions } from "../remote/host-frames.js";
import { LiveScreen } from "../tui/live-screen.js";
import { PlainScreen, type Screen } from "../tui/screen.js";
import { SessionView } from "../tui/session-view.js";
import { themeFor } from "../tui/theme.js";
import { assistantText, lastAssistantMessage } from "../usage-summary.js";
import { ABORTED_EXIT_CODE, interruptOnSigint } from "./interrupt.js";

/**
 * Print mode: runs the prompt to the end, draws tool activity on stderr (live on a terminal), and
 * prints the final assistant text on stdout. Returns 1 with the model's error on stderr (one `gantry: …`
 * line with a hint for common mistakes) when the model request failed, 130 when Ctrl-C stopped the run.
 */
export async function runPrintMode(session: AgentSession, prompt: string, io: CliIo): Promise<number> {
	const screen: Screen = io.stderr.isTTY ? new LiveScreen(io.stderr) : new PlainScreen(io.stderr);
	const view = new SessionView(screen, {
		theme: themeFor(io.stderr, io.env),
		getDefinition: frameDefinitions(session),
		showAssistant: false,
	});
	const unsubscribe = session.subscribe(view.handle);
	const interrupt = interruptOnSigint(session);
	try {
		await session.prompt(prompt);
	} finally {
		interrupt.stop();
		unsubscribe();
		view.dispose();
		screen.close();
	}
	return reportOutcome(session, io, interrupt.interrupted(), (text) => io.stdout.write(text === "" ? "" : `${text}\n`));
}

/**
 * Ends a run: "Aborted." and 130 when Ctrl-C stopped it, the model's error message on stderr and 1 when
 * the model failed, else hands the final text to `onAnswer` and returns 0.
 */
export function reportOutcome(
	session: AgentSession,
	io: CliIo,
	interrupted: boolean,
	onAnswer: (text: string) => void,
): number {
	const last = lastAssistantMessage(session.messages);
	if (interrupted) {
		io.stderr.write("Aborted.\n");
		return ABORTED_EXIT_CODE;
	}
	if (last?.stopReason === "error") {
		io.stderr.write(`gantry: ${describeModelError(last.errorMessage, session.model)}\n`);
		return 1;
	}
	if (last?.stopReason === "aborted") {
		io.stderr.write("Aborted.\n");
		return ABORTED_EXIT_CODE;
	}
	onAnswer(last ? assistantText(last) : "");
	return 0;
}
