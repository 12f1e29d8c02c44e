import { randomBytes } from "node:crypto";
import { join, posix, resolve } from "node:path";
import { errorText } from "@gantry/ai";
import { type Extension, ExtensionRunner, loadExtensions } from "@gantry/extensions";
import { isSandboxedWorkspace } from "@gantry/sandbox";
import { createLocalWorkspace, type Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import { installSessionHooks } from "../hooks/install-hooks.js";
import { runSessionStart } from "../hooks/prompt-hooks.js";
import { AgentSession } from "./agent-session.js";
import { type ContextFile, findContextFiles } from "./context-files.js";
import type { AgentSessionOptions } from "./session-options.js";
import { SessionPermissions } from "./session-permissions.js";
import { sandboxWorkspace } from "./session-sandbox.js";
import { sessionToolEnvironment } from "./tool-environment.js";
import { Transcript } from "./transcript.js";

/**
 * Creates a session: loads the extensions (paths relative to `cwd`; one that fails to load is reported
 * and the others still load), opens or resumes the transcript, registers the tools and applies the
 * loadout. Throws `CodingAgentError` for bad options or an unreadable transcript.
 *
 * @example
 * const session = await createAgentSession({ cwd: process.cwd(), model: getModel("openai", "gpt-4.1") });
 * session.subscribe((event) => { if (event.type === "message_end") console.log(event.message); });
 * await session.prompt("Fix the failing test");
 */
export async function createAgentSession(input: AgentSessionOptions): Promise<AgentSession> {
	validateOptions(input);
	const given =
		input.workspace ?? createLocalWorkspace(input.cwd as string, { environment: sessionToolEnvironment(input) });
	const { workspace, wrapped } = await sandboxWorkspace(given, input);
	// Everything that reads `cwd` (extensions' ctx.cwd, the system prompt, paths) sees the workspace's.
	const options: AgentSessionOptions & { cwd: string } = {
		...input,
		cwd: workspace.cwd,
		...sandboxOptions(input, workspace, wrapped),
	};
	const runner = new ExtensionRunner({
		cwd: options.cwd,
		model: options.model,
		workspace,
		...(options.ui ? { ui: options.ui, hasUI: true } : {}),
	});
	// The hooks see each call first, before every other handler; the session's permission policy comes next
	// and reads the decisions they leave in its `hints`, which no other extension can reach. Like Claude
	// Code's, the hooks are the user's own commands and run outside the sandbox the model's commands run in.
	const permissions = new SessionPermissions(options);
	const hooks = await installSessionHooks(options.settings?.hooks, given, runner, permissions.hints);
	if (permissions.extension !== undefined) await runner.add(permissions.extension, "permission policy");
	const paths = (options.extensions ?? []).filter((entry): entry is string => typeof entry === "string");
	const loaded = paths.length > 0 ? await loadExtensions(paths, { cwd: options.cwd }) : [];
	let nextLoaded = 0;
	for (const entry of options.extensions ?? []) {
		if (typeof entry === "string") {
			const extension = loaded[nextLoaded++];
			if (extension === undefined) throw new Error(`Extension ${entry} was not among those loaded`);
			await runner.addLoaded([extension]);
		} else await runner.add(entry as Extension, entry.name || "<inline>");
	}
	let transcript: ReturnType<typeof Transcript.open> | undefined;
	if (options.sessionFile) {
		try {
			transcript = Transcript.open(resolve(options.cwd, options.sessionFile), options.cwd);
		} catch (error) {
			throw new CodingAgentError(
				"invalid_transcript",
				`Cannot open session file ${options.sessionFile}: ${errorText(error)}`,
				{
					cause: error,
				},
			);
		}
	}
	// A session that switched models and is resumed with another one runs on that one from now: say so, so
	// the next resume does not go back to the model recorded before.
	const recorded = transcript?.loaded?.model;
	if (recorded !== undefined && (recorded.provider !== options.model.provider || recorded.id !== options.model.id)) {
		transcript?.transcript.appendModel(options.model);
	}
	const contextFiles = await contextFilesFor(options, workspace);
	const tempDir = await createSessionTempDir(workspace);
	const environment = { workspace, tempDir, contextFiles, checkpointWorkspace: given, ...(hooks ? { hooks } : {}) };
	const session = new AgentSession(options, runner, transcript, environment, permissions);
	if (hooks) await runSessionStart(hooks, transcript?.loaded === undefined ? "startup" : "resume");
	return session;
}

function contextFilesFor(options: AgentSessionOptions, workspace: Workspace): Promise<ContextFile[]> | ContextFile[] {
	const given = options.contextFiles ?? true;
	if (given === false) return [];
	if (given === true)
		return findContextFiles(options.home === undefined ? { workspace } : { workspace, home: options.home });
	return given.map((file) => ({ ...file }));
}

/**
 * What a sandboxed workspace changes in the options: bash offers `dangerouslyDisableSandbox` when the model
 * may ask to leave the sandbox, and a sandbox the session made is closed by it (the wrapped workspace
 * itself only unless `keepWorkspaceOpen`).
 */
function sandboxOptions(
	input: AgentSessionOptions,
	workspace: Workspace,
	wrapped: boolean,
): Partial<AgentSessionOptions> {
	if (!isSandboxedWorkspace(workspace)) return {};
	const offerEscape = workspace.sandbox.active && workspace.allowUnsandboxedCommands;
	const toolOptions = input.toolOptions ?? {};
	return {
		...(wrapped ? { keepWorkspaceOpen: false } : {}),
		...(offerEscape ? { toolOptions: { ...toolOptions, bash: { ...toolOptions.bash, sandboxEscape: true } } } : {}),
	};
}

/** A fresh folder for the session inside the workspace's temp folder. */
async function createSessionTempDir(workspace: Workspace): Promise<string> {
	const name = `gantry-session-${randomBytes(6).toString("hex")}`;
	const folder = workspace.isLocal ? join(workspace.tempDir, name) : posix.join(workspace.tempDir, name);
	try {
		await workspace.fs.mkdir(folder);
	} catch (error) {
		throw new CodingAgentError(
			"invalid_option",
			`Cannot create the session's temp folder ${folder}: ${errorText(error)}`,
			{
				cause: error,
			},
		);
	}
	return folder;
}

function validateOptions(options: AgentSessionOptions): void {
	if (options.workspace !== undefined) {
		const workspace: Partial<Workspace> | null = options.workspace;
		if (typeof workspace !== "object" || workspace === null || typeof workspace.cwd !== "string" || !workspace.fs)
			throw new CodingAgentError(
				"invalid_option",
				"createAgentSession: `workspace` must be a Workspace (createLocalWorkspace(cwd), an SSH workspace, …)",
			);
	} else if (typeof options.cwd !== "string" || options.cwd === "") {
		throw new CodingAgentError(
			"invalid_option",
			"createAgentSession: `cwd` must be a folder path (or pass a `workspace`)",
		);
	}
	if (!options.model || typeof options.model.api !== "string") {
		throw new CodingAgentError(
			"invalid_option",
			'createAgentSession: `model` is required (e.g. getModel("openai", "gpt-4.1"))',
		);
	}
	const contextFiles: unknown = options.contextFiles;
	if (
		contextFiles !== undefined &&
		typeof contextFiles !== "boolean" &&
		!(
			Array.isArray(contextFiles) &&
			contextFiles.every(
				(file: Partial<ContextFile> | null) =>
					typeof file === "object" &&
					file !== null &&
					typeof file.path === "string" &&
					typeof file.content === "string",
			)
		)
	) {
		throw new CodingAgentError(
			"invalid_option",
			"createAgentSession: `contextFiles` must be true, false or an array of { path, content } (see findContextFiles)",
		);
	}
	if (options.noTools !== undefined && options.noTools !== "all" && options.noTools !== "builtin") {
		throw new CodingAgentError(
			"invalid_option",
			`createAgentSession: \`noTools\` must be "all" or "builtin" (got ${String(options.noTools)})`,
		);
	}
	if (
		options.toolExecution !== undefined &&
		options.toolExecution !== "parallel" &&
		options.toolExecution !== "sequential"
	) {
		throw new CodingAgentError(
			"invalid_option",
			`createAgentSession: \`toolExecution\` must be "parallel" or "sequential"`,
		);
	}
}
