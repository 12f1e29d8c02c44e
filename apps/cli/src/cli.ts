import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withoutUndefined } from "@gantry/ai";
import type { SshWorkspace } from "@gantry/ssh";
import { type CliMode, type CliOptions, parseCliArguments } from "./args.js";
import { CliError, usageError } from "./errors.js";
import { helpText } from "./help.js";
import { type CliIo, processIo } from "./io.js";
import type { SelectedModel } from "./model-selection.js";
import { outputFolderFor, prepareOutputFolder, pruneOutputFolders, removeIfEmpty } from "./output-files.js";
import { readVersion } from "./package-info.js";
import { appendPipedInput, readPipedInput } from "./piped-input.js";
import { noticeProviderWarnings } from "./provider-notices.js";
import { openRemoteWorkspace } from "./remote/remote-session.js";
import type { SessionSetup } from "./session-factory.js";
import { findSession, listSessions, type SessionSummary } from "./session-list.js";
import { chooseSessionFile, type SessionFileChoice, sessionSavedLine, sessionsRoot } from "./sessions.js";
import { systemPromptOptions } from "./system-prompt-flags.js";
import { resolveWorkingFolder } from "./working-folder.js";

// The session stack takes about a second to load, so it is imported only once a run needs it:
// --help, --version and usage errors answer at once.

/**
 * Runs the `gantry` command line and resolves to its exit code: 0 on success, 1 when the model or the
 * setup failed, 2 for bad usage, 130 when Ctrl-C stopped a print or JSON run. Never rejects: errors are
 * printed to stderr as one line (`gantry: …`).
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
	try {
		if (argv[0] === "mcp") {
			const { runMcpCommand } = await import("./commands/mcp-command.js");
			return await runMcpCommand(argv.slice(1), io);
		}
		if (argv[0] === "rewind") {
			const { runRewindCommand } = await import("./commands/rewind.js");
			return await runRewindCommand(argv.slice(1), io);
		}
		if (argv[0] === "export") {
			const { runExportCommand } = await import("./commands/export.js");
			return await runExportCommand(argv.slice(1), io);
		}
		const options = parseCliArguments(argv);
		if (options.help) {
			io.stdout.write(helpText(readVersion()));
			return 0;
		}
		if (options.version) {
			io.stdout.write(`${readVersion()}\n`);
			return 0;
		}
		if (options.command === "trust") {
			const { runTrustCommand } = await import("./trust.js");
			return await runTrustCommand(options, io);
		}
		if (options.command === "tools") {
			const { runToolsCommand } = await import("./commands/tools.js");
			return await runToolsCommand(options, io.stdout, io.stderr);
		}
		if (options.command === "sessions") {
			const { runSessionsCommand } = await import("./commands/sessions.js");
			return await runSessionsCommand(options, io);
		}
		if (options.demo) {
			const { runDemo } = await import("./demo/run-demo.js");
			return await runDemo(options, io);
		}
		return await runSession(options, io);
	} catch (error) {
		if (error instanceof CliError) {
			io.stderr.write(`gantry: ${error.message}\n`);
			return error.exitCode;
		}
		io.stderr.write(
			`gantry: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		return 1;
	}
}

/** Interactive without a prompt on a terminal; print mode otherwise (the prompt may come on stdin). */
function chooseMode(options: CliOptions, io: CliIo): CliMode {
	if (options.mode !== undefined) return options.mode;
	return options.prompt === undefined && io.stdin.isTTY === true ? "interactive" : "print";
}

async function runSession(options: CliOptions, io: CliIo): Promise<number> {
	const mode = chooseMode(options, io);
	const workspace = await openRemoteWorkspace(options, io.env);
	try {
		return await runSessionIn(workspace, options, io, mode);
	} finally {
		await workspace?.close();
	}
}

async function runSessionIn(
	workspace: SshWorkspace | undefined,
	options: CliOptions,
	io: CliIo,
	mode: CliMode,
): Promise<number> {
	const { requireApiKey, selectModel } = await import("./model-selection.js");
	const cwd = workspace ? workspace.cwd : resolveWorkingFolder(options.cwd);
	if (options.trust) {
		const { trustFolder } = await import("./trust.js");
		await trustFolder({ cwd, workspace });
	}
	let prompt = options.prompt;
	if (mode !== "interactive" && prompt === undefined) {
		if (io.stdin.isTTY) throw usageError(`${mode === "json" ? "--mode json" : "Print mode"} needs a prompt`);
		prompt = (await readPipedInput(io.stdin)).trim();
		if (prompt === "") throw usageError("No prompt: pass one as an argument or on stdin");
	} else if (mode !== "interactive" && prompt !== undefined && !io.stdin.isTTY) {
		// `git diff | gantry "Review this diff"`: what comes on stdin goes with the prompt.
		prompt = appendPipedInput(prompt, await readPipedInput(io.stdin));
	}
	const { streamSettings } = await import("./stream-settings.js");
	const stream = streamSettings(options, io.env);
	const promptOptions = systemPromptOptions(options);
	// A remote folder's sessions are kept apart from a local folder of the same path.
	const sessionKey = workspace ? `${workspace.label}${cwd}` : cwd;
	const { session, pickFrom } = options.noSession ? {} : chooseSession(options, sessionKey, mode);
	// Settings' `model` and `provider` are the folder's (or the user's) defaults; flags win.
	const { settingsModelDefaults, withSettingsDefaults } = await import("./settings-model.js");
	const settingsDefaults = await settingsModelDefaults(cwd, workspace);
	const onNotice = (message: string): void => {
		io.stderr.write(`gantry: ${message}\n`);
	};
	// A resumed session goes on with the model it was last switched to (`/model`) unless --model says otherwise.
	const { selectResumedModel } = await import("./resumed-model.js");
	const modelFor = (transcriptPath: string | undefined, notice = onNotice) =>
		selectResumedModel(
			options,
			transcriptPath,
			(choice) => selectModel(withSettingsDefaults(choice, settingsDefaults), io.env),
			notice,
		);
	const selected = modelFor(session?.path);
	requireApiKey(selected);
	// Full-output files stay with the session; with --no-session in a temp folder that is kept too.
	pruneOutputFolders(sessionsRoot());
	const outputFolder = session ? outputFolderFor(session.path) : mkdtempSync(join(tmpdir(), "gantry-output-"));
	prepareOutputFolder(outputFolder);
	try {
		return await runWithSession(
			{
				options,
				cwd,
				model: selected.model,
				...withoutUndefined({ apiKey: selected.apiKey }),
				stream,
				onNotice,
				sessionOptions: { ...promptOptions, ...(workspace ? { workspace } : {}) },
				// Over SSH the full-output files stay on the host, in the session's temp folder there.
				...(workspace ? {} : { outputFolder }),
			},
			{ mode, io, prompt, modelFor, ...withoutUndefined({ session, sessionKey: session && sessionKey, pickFrom }) },
		);
	} finally {
		removeIfEmpty(outputFolder);
	}
}

/**
 * The transcript of a run: `--resume ID|PATH`, `--session`, `--continue`, or a new one; with `--resume` and
 * no value also the sessions interactive mode offers to pick from (a usage error in the other modes).
 */
function chooseSession(
	options: CliOptions,
	sessionKey: string,
	mode: CliMode,
): { session: SessionFileChoice; pickFrom?: SessionSummary[] } {
	if (typeof options.resume === "string") {
		return { session: { path: findSession(options.resume, sessionKey), origin: "resumed" } };
	}
	const session = chooseSessionFile(options, sessionKey);
	if (options.resume !== true) return { session };
	if (mode !== "interactive") {
		throw usageError(
			`--resume without an id lists sessions to pick from, which needs interactive mode; pass the id (gantry sessions lists them)`,
		);
	}
	return { session, pickFrom: listSessions(sessionKey) };
}

async function runWithSession(
	setup: SessionSetup,
	run: {
		mode: CliMode;
		io: CliIo;
		session?: SessionFileChoice;
		sessionKey?: string;
		pickFrom?: SessionSummary[];
		prompt: string | undefined;
		/** The model to open a transcript picked in interactive mode with. */
		modelFor: (transcriptPath: string, notice: (message: string) => void) => SelectedModel;
	},
): Promise<number> {
	const { mode, io, session, prompt } = run;
	if (mode === "interactive") {
		const { runInteractiveMode } = await import("./modes/interactive.js");
		return runInteractiveMode({
			...setup,
			io,
			modelFor: run.modelFor,
			...withoutUndefined({ session, sessionKey: run.sessionKey, pickFrom: run.pickFrom, initialPrompt: prompt }),
		});
	}
	const { openSession } = await import("./session-factory.js");
	const stopWarnings = noticeProviderWarnings(setup.model, setup.onNotice ?? (() => {}));
	let agentSession: Awaited<ReturnType<typeof openSession>>;
	try {
		agentSession = await openSession({ ...setup, ...(session ? { sessionFile: session.path } : {}) });
	} catch (error) {
		stopWarnings();
		throw error;
	}
	try {
		if (mode === "json") {
			const { runJsonMode } = await import("./modes/json.js");
			return await runJsonMode(agentSession, prompt as string, io);
		}
		const { runPrintMode } = await import("./modes/print.js");
		return await runPrintMode(agentSession, prompt as string, io);
	} finally {
		stopWarnings();
		await agentSession.dispose();
		// Where the conversation went and how to go on with it, on stderr: stdout stays the answer (or JSON).
		if (session) io.stderr.write(`${sessionSavedLine(session)}\n`);
	}
}
