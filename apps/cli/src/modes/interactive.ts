import { homedir } from "node:os";
import { posix, relative } from "node:path";
import { withoutUndefined } from "@gantry/ai";
import {
	type AgentSession,
	nextPermissionMode,
	type PermissionMode,
	type PermissionOrigins,
	type PermissionPolicyOptions,
} from "@gantry/coding-agent";
import type { Theme } from "@gantry/extensions";
import { keepAlwaysAnswers } from "../always-answers.js";
import { usageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { requireApiKey, type SelectedModel } from "../model-selection.js";
import { outputFolderFor, prepareOutputFolder, removeIfEmpty } from "../output-files.js";
import { readVersion } from "../package-info.js";
import { policyOptionsOf, readRunPermissions } from "../permission-settings.js";
import { noticeProviderWarnings } from "../provider-notices.js";
import { frameDefinitions } from "../remote/host-frames.js";
import { describeSandbox } from "../sandbox-status.js";
import { openSession, type SessionSetup } from "../session-factory.js";
import type { SessionSummary } from "../session-list.js";
import { newSessionFile, type SessionFileChoice, sessionSavedLine } from "../sessions.js";
import { askToTrust } from "../trust.js";
import { KeyInput } from "../tui/key-input.js";
import { LineEditor } from "../tui/line-editor.js";
import { LiveScreen } from "../tui/live-screen.js";
import { replayConversation } from "../tui/replay.js";
import { rewindInteractively } from "../tui/rewind-command.js";
import { pickSession } from "../tui/session-picker.js";
import { SessionView } from "../tui/session-view.js";
import { runSlashCommand } from "../tui/slash-commands.js";
import { TerminalUI } from "../tui/terminal-ui.js";
import { themeFor } from "../tui/theme.js";
import { lastAssistantMessage } from "../usage-summary.js";
import { compactInteractively } from "./session-commands.js";

/** What interactive mode starts from. */
export interface InteractiveSetup extends Omit<SessionSetup, "ui" | "sessionFile"> {
	io: CliIo;
	/** The transcript; none with `--no-session`. */
	session?: SessionFileChoice;
	/** The key of the folder's sessions (`sessionKey`), for the new transcript of `/clear`. */
	sessionKey?: string;
	/** `--resume` without an id: the folder's sessions, newest first, to pick one from before the banner. */
	pickFrom?: SessionSummary[];
	/** A prompt to run first (`gantry --mode interactive "prompt"`). */
	initialPrompt?: string;
	/**
	 * The model to open a transcript picked from `pickFrom` with (the one it was last switched to, unless
	 * `--model`), notes about it going to `notice`; throws as the run's model selection does. Without it the
	 * run's `model` is used.
	 */
	modelFor?: (transcriptPath: string, notice: (message: string) => void) => SelectedModel;
}

const PROMPT = "› ";

/**
 * Interactive mode: a prompt line; each prompt runs with assistant text streaming and tool frames drawn
 * live; Ctrl-C aborts the run, twice at an empty prompt (or Ctrl-D) exits; permission questions are
 * answered on the terminal; slash commands inspect and change the session.
 */
export async function runInteractiveMode(given: InteractiveSetup): Promise<number> {
	let setup = given;
	const { io } = setup;
	if (!io.stdin.isTTY || !io.stdout.isTTY) {
		throw usageError("Interactive mode needs a terminal; pass a prompt (or -p) to run without one");
	}
	const stdout = io.stdout;
	const theme = themeFor(stdout, io.env);
	const screen = new LiveScreen(stdout);
	const keys = new KeyInput(io.stdin);
	// Bracketed paste: the terminal marks pasted text, so its new lines stay in the prompt.
	stdout.write(BRACKETED_PASTE_ON);
	let abortRun: (() => void) | undefined;
	let view: SessionView | undefined;
	const ui = new TerminalUI({
		screen,
		keys,
		theme,
		onInterrupt: () => abortRun?.(),
		onWaiting: (waiting) => view?.setWaiting(waiting),
	});
	let session: AgentSession;
	let permissions: PermissionPolicyOptions;
	let origins: PermissionOrigins = {};
	// Notes about the setup (an unused remote .mcp.json, a deprecated model), shown under the banner;
	// provider warnings raised later are shown as they come.
	const notices: string[] = [];
	const chosen = setup.pickFrom ? await pickSession(setup.pickFrom, ui, theme) : undefined;
	if (chosen !== undefined && setup.modelFor !== undefined) {
		try {
			const selected = setup.modelFor(chosen.path, (message) => notices.push(message));
			requireApiKey(selected);
			const { apiKey: _runKey, ...rest } = setup;
			setup = { ...rest, model: selected.model, ...withoutUndefined({ apiKey: selected.apiKey }) };
		} catch (error) {
			screen.close();
			keys.close();
			throw error;
		}
	}
	let file: SessionFileChoice | undefined = chosen ? { path: chosen.path, origin: "resumed" } : setup.session;
	let openWith: (sessionFile: string | undefined) => Promise<AgentSession>;
	// Full-output files stay with the transcript they belong to.
	const outputFolder = chosen && setup.outputFolder !== undefined ? outputFolderFor(chosen.path) : setup.outputFolder;
	if (outputFolder !== undefined) prepareOutputFolder(outputFolder);
	const stopWarnings = noticeProviderWarnings(setup.model, (message) =>
		view ? ui.notify(message, "warning") : notices.push(message),
	);
	try {
		// A folder that asks for rules, hooks or servers is asked about once, before they could apply.
		const place = { cwd: setup.cwd, workspace: setup.sessionOptions?.workspace };
		let run = await readRunPermissions(setup.options, place, setup.permissions);
		const trust = await askToTrust(ui, run, place);
		if (trust.trusted) run = await readRunPermissions(setup.options, place, setup.permissions);
		else if (trust.notice !== undefined) notices.push(trust.notice);
		// What /tools shows: the settings' rules, and the "always" answers as they are given.
		const allow = run.settings.permissions?.allow ?? [];
		permissions = policyOptionsOf(run, () => session.permissions.mode);
		origins = run.origins;
		const settled = run;
		openWith = (sessionFile) =>
			openSession({
				...setup,
				...(outputFolder !== undefined ? { outputFolder } : {}),
				ui,
				// Before the banner the notes wait under it; later ones (an MCP server failing) show as they come.
				onNotice: (message) => (view ? ui.notify(message, "warning") : notices.push(message)),
				// The settings were read once, above; the session applies them as they are.
				runPermissions: settled,
				alwaysAllow: keepAlwaysAnswers(setup, ui, allow, settled.loaded.trusted),
				...(sessionFile ? { sessionFile } : {}),
			});
		session = await openWith(file?.path);
	} catch (error) {
		stopWarnings();
		screen.close();
		keys.close();
		throw error;
	}
	view = new SessionView(screen, {
		theme,
		getDefinition: frameDefinitions(session),
		modelInfo: () => session.model,
	});
	let unsubscribe = session.subscribe(view.handle);
	view.commit(banner(session, { ...setup, ...(file ? { session: file } : {}) }, theme));
	for (const notice of notices) ui.notify(notice, "warning");
	if (file?.origin !== "new" && session.messages.length > 0) replayConversation(session.messages, view, theme);
	const editor = new LineEditor();
	try {
		let next = setup.initialPrompt;
		while (true) {
			const input = next ?? (await readPrompt(editor, keys, screen, theme, session));
			next = undefined;
			if (input === undefined) break;
			const text = input.trim();
			if (text === "") continue;
			if (text.startsWith("/")) {
				view.commit([`${theme.accent(PROMPT)}${text}`]);
				const print = (lines: string[]) => view.commit([...lines, ""]);
				const outcome = runSlashCommand(text, { session, theme, print, permissions, origins });
				if (outcome === "exit") break;
				if (outcome === "compact") await compactInteractively(session, text, keys, theme, print);
				if (outcome === "clear") {
					// A new transcript in the same folder; the old one stays on disk, resumable.
					const previous = file;
					const model = session.model;
					unsubscribe();
					await session.dispose();
					file =
						previous === undefined ? undefined : { path: newSessionFile(setup.sessionKey ?? setup.cwd), origin: "new" };
					session = await openWith(file?.path);
					// The new transcript records the switch, so resuming it goes on with this model too.
					session.setModel(model);
					unsubscribe = session.subscribe(view.handle);
					print([
						theme.success(file === undefined ? "New session (in memory)." : `New session ${file.path}`),
						...(previous === undefined ? [] : [theme.muted(`The previous one: ${sessionSavedLine(previous)}`)]),
					]);
				}
				if (outcome === "rewind") {
					const prompt = await rewindInteractively(session, ui, theme, print);
					if (prompt !== undefined) editor.restore(prompt);
				}
				continue;
			}
			view.commit([`${theme.accent(PROMPT)}${theme.bold(text)}`]);
			let aborted = false;
			abortRun = () => {
				aborted = true;
				session.abort();
			};
			// Ctrl-C aborts the run. Anything else typed meanwhile goes into the editor: it is the next prompt's
			// text, and Enter queues it to be sent as soon as the run ends (an aborted run puts it back instead).
			let queued: string | undefined;
			const removeHandler = keys.push((key) => {
				if (key.ctrl && key.name === "c") abortRun?.();
				else if (!(key.ctrl && key.name === "d") && editor.handle(key) === "submit" && queued === undefined) {
					queued = editor.take();
				}
				return true;
			});
			try {
				await session.prompt(text);
			} finally {
				removeHandler();
				abortRun = undefined;
			}
			// A run stopped during its tools ends without an aborted model message; say so anyway.
			const stoppedModel = lastAssistantMessage(session.messages)?.stopReason === "aborted";
			view.commit(aborted && !stoppedModel ? [theme.warning("Aborted."), ""] : [""]);
			if (queued !== undefined) {
				if (aborted) editor.restore(queued);
				else next = queued;
			}
		}
	} finally {
		view.dispose();
		screen.close();
		stdout.write(BRACKETED_PASTE_OFF);
		keys.close();
		stopWarnings();
		await session.dispose();
		if (outputFolder !== undefined && outputFolder !== setup.outputFolder) removeIfEmpty(outputFolder);
	}
	return 0;
}

/** Two Esc presses within this long are Esc Esc (milliseconds). */
const ESCAPE_TWICE_MS = 800;
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
function banner(session: AgentSession, setup: InteractiveSetup, theme: Theme): string[] {
	const model = `${session.model.provider}/${session.model.id}`;
	const file = setup.session;
	const resumed = file !== undefined && file.origin !== "new" && session.messages.length > 0;
	return [
		`${theme.bold("gantry")} ${theme.muted(readVersion())} ${theme.muted("·")} ${theme.accent(model)} ${theme.muted("·")} ${setup.cwd}`,
		theme.muted(
			file === undefined
				? "Session kept in memory (--no-session): nothing is saved"
				: resumed
					? `Resumed ${file.path} (${session.messages.length} messages)`
					: `Session ${file.path}`,
		),
		...(session.contextFiles.length > 0 ? [theme.muted(`Instructions: ${instructionNames(session).join(" · ")}`)] : []),
		sandboxLine(session, setup.options.sandbox, theme),
		theme.muted("Type a prompt · /help for commands · Ctrl-C aborts a run, twice at an empty prompt exits"),
		"",
	];
}

/** Whether bash runs in the OS sandbox: a warning when it was asked for and is not active. */
function sandboxLine(session: AgentSession, flag: boolean, theme: Theme): string {
	const line = describeSandbox(session, flag);
	return line.startsWith("Sandbox: NOT active") ? theme.warning(line) : theme.muted(line);
}

/** The instruction files in the system prompt, named from the working folder (`~` for the home folder). */
function instructionNames(session: AgentSession): string[] {
	const { workspace } = session;
	const path = workspace.isLocal ? { relative } : posix;
	const home = homedir();
	return session.contextFiles.map((file) =>
		file.path.startsWith(`${home}/`) && !file.path.startsWith(`${workspace.cwd}/`)
			? `~${file.path.slice(home.length)}`
			: path.relative(workspace.cwd, file.path),
	);
}

/** The status line under the prompt: the permission mode when it is not the default one. */
function modeLine(mode: PermissionMode, theme: Theme): string[] {
	return mode === "default" ? [] : [theme.warning(`⏵⏵ ${mode} mode`) + theme.muted(" (Shift+Tab to change)")];
}

/**
 * Shows the prompt line and resolves with the submitted text, or undefined when the person leaves.
 * Shift+Tab cycles the session's permission mode (default → acceptEdits → plan), shown under the line.
 */
function readPrompt(
	editor: LineEditor,
	keys: KeyInput,
	screen: LiveScreen,
	theme: Theme,
	session: AgentSession,
): Promise<string | undefined> {
	return new Promise((resolve) => {
		let exitArmed = false;
		let escapedAt = 0;
		const draw = () => {
			const { text, column } = editor.view(PROMPT.length, screen.columns);
			const lines = [`${theme.accent(PROMPT)}${text}`, ...modeLine(session.permissions.mode, theme)];
			if (exitArmed) lines.push(theme.muted("Press Ctrl-C again to exit"));
			screen.setFooter(lines, { row: 0, column });
		};
		const finish = (value: string | undefined) => {
			removeHandler();
			screen.setFooter([]);
			resolve(value);
		};
		const removeHandler = keys.push((key) => {
			if (key.ctrl && key.name === "c") {
				if (editor.text !== "") {
					editor.clear();
					exitArmed = false;
				} else if (exitArmed) {
					finish(undefined);
					return true;
				} else {
					exitArmed = true;
				}
				draw();
				return true;
			}
			exitArmed = false;
			// Esc twice in a row at an empty prompt is /rewind.
			if (key.name === "escape" && editor.text === "") {
				if (Date.now() - escapedAt < ESCAPE_TWICE_MS) finish("/rewind");
				else escapedAt = Date.now();
				return true;
			}
			if (key.name === "tab" && key.shift) {
				session.permissions.setMode(nextPermissionMode(session.permissions.mode));
				draw();
				return true;
			}
			if (key.ctrl && key.name === "d" && editor.text === "") {
				finish(undefined);
				return true;
			}
			if (editor.handle(key) === "submit") finish(editor.take());
			else draw();
			return true;
		});
		draw();
	});
}
