import { resolve } from "node:path";
import { errorText, type Model, withoutUndefined } from "@gantry/ai";
import {
	type AgentSession,
	type AgentSessionOptions,
	CONTEXT_FILES_MAX_BYTES,
	createAgentSession,
	rulesMatchingNoTool,
} from "@gantry/coding-agent";
import type { Extension, ExtensionUI, ToolDefinition } from "@gantry/extensions";
import type { CliOptions } from "./args.js";
import { CliError } from "./errors.js";
import { attachMcpServers, loadMcpServers, noteRemoteMcpConfig } from "./mcp-servers.js";
import { type ExtraRules, type RunPermissions, readRunPermissions } from "./permission-settings.js";
import { untrustedNotice } from "./project-requests.js";
import { type StreamSettings, streamWithSettings } from "./stream-settings.js";
import { checkToolNames, cliDefaultTools, knownToolNames } from "./tool-names.js";

/** Everything a run's session is made from. */
export interface SessionSetup {
	/** The parsed command line (tools, extensions, `--yes`). */
	options: CliOptions;
	cwd: string;
	model: Model;
	apiKey?: string;
	/** How permission prompts and extensions reach the person; none in print and JSON modes. */
	ui?: ExtensionUI;
	/** The JSONL transcript; none keeps the session in memory. */
	sessionFile?: string;
	/** Rules added to the settings files' (the demo allows its edit and test command). */
	permissions?: ExtraRules;
	/**
	 * The run's permissions when the caller has read them already (interactive mode asks about trust first
	 * and shows them in `/tools`); `permissions` is then not used. Otherwise they are read here.
	 */
	runPermissions?: RunPermissions;
	/** How "always" answers are kept (interactive mode saves them to `.gantry/settings.local.json`). */
	alwaysAllow?: Pick<AgentSessionOptions, "onAlwaysAllow" | "alwaysAllowScope">;
	/** Extra extensions (paths or functions) loaded after the `-e` ones. */
	extraExtensions?: (Extension | string)[];
	customTools?: ToolDefinition[];
	/**
	 * An existing folder for bash's and powershell's full-output files, kept after the run (with the
	 * session). Default: the session's temp folder, removed when the session is disposed.
	 */
	outputFolder?: string;
	/** `--timeout` and `--thinking`, added to every model request. */
	stream?: StreamSettings;
	/** Options passed through as they are (the demo's prompt, the `--ssh` workspace). */
	sessionOptions?: Partial<AgentSessionOptions>;
	/** Where one-line notes about the setup go (print and JSON mode: stderr). Default: nowhere. */
	onNotice?: (message: string) => void;
}

/**
 * Creates the session from the run's settings (`loadSettings`, as an SDK session reads them, plus
 * `--allow`/`--deny`; the mode from `--permission-mode` or `--yes`, else the files): the session applies
 * the rules and the mode itself. Then the `-e` extensions (paths relative to the shell's folder), the MCP
 * servers (the project's `.mcp.json` only once the folder is trusted; until then one notice says what was
 * held back), and the tool options. Over `--ssh` the project's settings are read on the remote host, and
 * only `~/.gantry/mcp.json`'s MCP servers start, on this machine (see `noteRemoteMcpConfig`). Rules naming
 * no tool the session has get one notice. Throws `extension_failed` when an extension cannot be loaded,
 * `session_failed` for an unusable session file or settings file, and a usage error for `--tools` names
 * no tool has.
 */
export async function openSession(setup: SessionSetup): Promise<AgentSession> {
	const { options } = setup;
	const workspace = setup.sessionOptions?.workspace;
	const remote = workspace !== undefined && !workspace.isLocal ? workspace : undefined;
	const place = { cwd: setup.cwd, workspace };
	const notice = setup.onNotice ?? (() => {});
	const run = setup.runPermissions ?? (await readRunPermissions(options, place, setup.permissions));
	if (setup.runPermissions === undefined) {
		const untrusted = await untrustedNotice(run, place);
		if (untrusted !== undefined) notice(untrusted);
	}
	if (remote) await noteRemoteMcpConfig(remote, setup.cwd, notice);
	// The servers of .mcp.json / ~/.gantry/mcp.json start in the background; the session does not wait.
	// A server that cannot start is one notice naming it and the reason.
	const mcp = remote
		? await loadMcpServers(process.cwd(), { project: false, onFailure: notice })
		: await loadMcpServers(setup.cwd, {
				project: run.loaded.trusted,
				trusted: run.loaded.trusted,
				onFailure: notice,
			});
	const extensions: (Extension | string)[] = [
		...options.extensions.map((path) => resolve(path)),
		...(setup.extraExtensions ?? []),
		...(mcp ? [mcp] : []),
	];
	let session: AgentSession;
	try {
		session = await createAgentSession({
			cwd: setup.cwd,
			model: setup.model,
			// Without --tools every tool registers and the seven builtins start active (grep, find and ls too,
			// so print mode can look around a folder without asking; apply_patch instead of edit for a model
			// that edits with patches).
			tools: options.tools ?? ["*", ...cliDefaultTools(setup.model)],
			...(options.noTools ? { noTools: "all" as const } : {}),
			extensions,
			settings: run.settings,
			permissionMode: run.permissionMode,
			...setup.alwaysAllow,
			...withoutUndefined({
				apiKey: setup.apiKey,
				excludeTools: options.excludeTools,
				customTools: setup.customTools,
				sessionFile: setup.sessionFile,
				ui: setup.ui,
			}),
			...(setup.stream && Object.keys(setup.stream).length > 0 ? { streamFn: streamWithSettings(setup.stream) } : {}),
			...(setup.outputFolder !== undefined
				? { toolOptions: { bash: { tempDir: setup.outputFolder }, powershell: { tempDir: setup.outputFolder } } }
				: {}),
			// Without a transcript the run leaves nothing on disk: no checkpoint repository under ~/.gantry either.
			...(setup.sessionFile === undefined ? { checkpoints: false } : {}),
			...setup.sessionOptions,
		});
	} catch (error) {
		await mcp?.close();
		throw new CliError("session_failed", errorText(error), { cause: error });
	}
	if (mcp) attachMcpServers(session, mcp);
	for (const file of session.contextFiles) {
		if (file.omittedBytes === undefined) continue;
		setup.onNotice?.(
			`${file.path}: ${file.omittedBytes.toLocaleString("en-US")} bytes left out of the system prompt (instruction files may take ${CONTEXT_FILES_MAX_BYTES / 1024} KiB together)`,
		);
	}
	const failures = session.runner
		.getDiagnostics()
		.filter((diagnostic) => diagnostic.code === "load_failed" || diagnostic.code === "extension_failed");
	if (failures.length > 0) {
		await session.dispose();
		throw new CliError("extension_failed", failures.map((failure) => failure.message).join("\n"));
	}
	try {
		checkToolNames(session, setup.cwd, options);
	} catch (error) {
		await session.dispose();
		throw error;
	}
	const unmatched = rulesMatchingNoTool(
		run.origins.ruleSources.map((source) => source.rule),
		knownToolNames(session, setup.cwd),
	);
	for (const rule of new Set(unmatched)) {
		const file = run.origins.ruleSources.find((source) => source.rule === rule)?.file;
		notice(`the permission rule ${rule}${file === undefined ? "" : ` (${file})`} matches no tool this session has.`);
	}
	return session;
}
