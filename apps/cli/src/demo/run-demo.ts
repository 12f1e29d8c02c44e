import { createFauxModel } from "@gantry/ai";
import type { CliOptions } from "../args.js";
import type { CliIo } from "../io.js";
import { interruptOnSigint } from "../modes/interrupt.js";
import { openSession } from "../session-factory.js";
import { LiveScreen } from "../tui/live-screen.js";
import { PlainScreen, type Screen } from "../tui/screen.js";
import { SessionView } from "../tui/session-view.js";
import { themeFor } from "../tui/theme.js";
import { copyDemoProject, DEMO_EXTENSION } from "./demo-project.js";
import { createDemoTurns, DEMO_PROMPT } from "./demo-script.js";

/** Pause between streamed pieces on a terminal, so the demo reads like a live model. */
const TERMINAL_DELTA_DELAY_MS = 45;

/**
 * `gantry --demo`: copies the sample project to a temporary folder and plays a scripted session on the
 * offline faux model — no key, no network. Every tool call runs for real, under the same permission
 * policy as print mode (edits and `node --test` are allowed, nothing else that changes things), and is
 * drawn by the same view as a real run. Ends by printing where the folder is; returns the exit code.
 */
export async function runDemo(options: CliOptions, io: CliIo): Promise<number> {
	const folder = copyDemoProject();
	const live = io.stdout.isTTY === true;
	const theme = themeFor(io.stdout, io.env);
	const model = createFauxModel(createDemoTurns(), { id: "demo-script", delayMs: live ? TERMINAL_DELTA_DELAY_MS : 0 });
	const session = await openSession({
		options: { ...withoutToolChoices(options), yes: false, noTools: false, extensions: [] },
		cwd: folder.project,
		model,
		sessionFile: folder.sessionFile,
		permissions: { allow: ["edit", "bash(node --test:*)"] },
		extraExtensions: [DEMO_EXTENSION],
		// The scripted session is the same on every machine: no one's own AGENTS.md joins it; and it leaves
		// nothing in the person's home (checkpoints would live under ~/.gantry).
		sessionOptions: { contextFiles: false, checkpoints: false },
	});
	session.setActiveToolsByName([...session.getActiveToolNames(), "ls", "find", "grep"]);
	const screen: Screen = live ? new LiveScreen(io.stdout) : new PlainScreen(io.stdout);
	const view = new SessionView(screen, { theme, getDefinition: (name) => session.getToolDefinition(name) });
	const unsubscribe = session.subscribe(view.handle);
	view.commit([
		`${theme.bold("gantry --demo")} ${theme.muted("· offline: a scripted model, real tools, a real permission policy")}`,
		theme.muted(`Working in a copy of the sample project: ${folder.project}`),
		"",
		`${theme.accent("› ")}${theme.bold(DEMO_PROMPT)}`,
		"",
	]);
	const interrupt = interruptOnSigint(session);
	try {
		await session.prompt(DEMO_PROMPT);
	} finally {
		interrupt.stop();
		unsubscribe();
		view.dispose();
		screen.close();
		await session.dispose();
	}
	const last = session.messages.at(-1) as { role?: string; stopReason?: string } | undefined;
	const finished = last?.role === "assistant" && last.stopReason === "stop";
	io.stdout.write(
		[
			"",
			`${theme.bold("Demo project:")} ${folder.project}`,
			`${theme.muted("Transcript:  ")} ${folder.sessionFile}`,
			theme.muted(`Look at the fix with: cat ${folder.project}/src/cart.js`),
			"",
		].join("\n"),
	);
	return finished ? 0 : 1;
}

/** The options without the `--tools` / `--exclude-tools` choices (the demo runs its own set). */
function withoutToolChoices(options: CliOptions): CliOptions {
	const { tools: _tools, excludeTools: _excludeTools, ...rest } = options;
	return rest;
}
