import { resolve } from "node:path";
import { type Model, withoutUndefined } from "@gantry/ai";
import {
	type AgentSession,
	type AgentSessionOptions,
	CONTEXT_FILES_MAX_BYTES,
	createAgentSession,
	createPermissionPolicy,
	type PermissionPolicyOptions,
} from "@gantry/coding-agent";
import type { Extension, ExtensionUI, ToolDefinition } from "@gantry/extensions";
import type { CliOptions } from "./args.js";
import { CliError } from "./errors.js";
import { attachMcpServers, loadMcpServers, noteRemoteMcpConfig } from "./mcp-servers.js";
import { permissionOptionsFor } from "./permission-settings.js";
import { type StreamSettings, streamWithSettings } from "./stream-settings.js";
import { checkToolNames, cliDefaultTools } from "./tool-names.js";

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
	/** Rules added to the default permission policy (the demo allows its edit and test command). */
	permissions?: Omit<PermissionPolicyOptions, "mode">;
	/**
	 * The policy's options when the caller has read them already (interactive mode shows them in
	 * `/tools`); `permissions` is then not used. Otherwise they are read from the settings files here.
	 */
	policyOptions?: PermissionPolicyOptions;
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
 * Creates the session: the default permission policy first, with the rules of the settings files and
 * `--allow`/`--deny` (`--yes` turns it to "yes"; without a UI, tools that may change things are
 * blocked), then the `-e` extensions (paths relative to the shell's folder), then the MCP servers,
 * then the tool options. Over `--ssh` the project's settings are read on the remote host, and only
 * `~/.gantry/mcp.json`'s MCP servers start, on this machine (see `noteRemoteMcpConfig`).
 * Throws `extension_failed` when an extension cannot be loaded, `session_failed` for an unusable
 * session file or settings file, and a usage error for `--tools` names no tool has.
 */
export async function openSession(setup: SessionSetup): Promise<AgentSession> {
	const { options } = setup;
	const workspace = setup.sessionOptions?.workspace;
	const remote = workspace !== undefined && !workspace.isLocal ? workspace : undefined;
	const place = { cwd: setup.cwd, workspace };
	const policy = createPermissionPolicy(
		setup.policyOptions ?? (await permissionOptionsFor(options, place, setup.permissions)),
	);
	if (remote) await noteRemoteMcpConfig(remote, setup.cwd, setup.onNotice ?? (() => {}));
	// The servers of .mcp.json / ~/.gantry/mcp.json start in the background; the session does not wait.
	const mcp = remote ? await loadMcpServers(process.cwd(), { project: false }) : await loadMcpServers(setup.cwd);
	const extensions: (Extension | string)[] = [
		policy,
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
			...setup.sessionOptions,
		});
	} catch (error) {
		await mcp?.close();
		throw new CliError("session_failed", error instanceof Error ? error.message : String(error), { cause: error });
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
	return session;
}
