import { type ScriptedLlmServer, startScriptedLlmServer } from "@gantry/ai/testing";
import { afterEach, beforeEach } from "vitest";
import { CLI_ENTRY, makeWorkspace } from "./run-cli.js";
import { TmuxTerminal } from "./tmux.js";

/** What each interactive-mode test gets: a fresh folder, a scripted model server, and its terminal. */
export interface InteractiveFixture {
	readonly workspace: ReturnType<typeof makeWorkspace>;
	readonly server: ScriptedLlmServer;
	/** The terminal the test started, if any; killed after the test. */
	terminal: TmuxTerminal | undefined;
}

/**
 * Registers the per-test set-up of interactive-mode tests: before each test a new workspace (`prepare`
 * may fill its project folder) and a scripted model server; after it the terminal is killed, the server
 * closed and the folder removed.
 */
export function useInteractiveFixture(prepare?: (project: string) => void): InteractiveFixture {
	const state = {} as { workspace: InteractiveFixture["workspace"]; server: ScriptedLlmServer };
	const fixture: InteractiveFixture = {
		get workspace() {
			return state.workspace;
		},
		get server() {
			return state.server;
		},
		terminal: undefined,
	};
	beforeEach(async () => {
		state.workspace = makeWorkspace();
		state.server = await startScriptedLlmServer();
		prepare?.(state.workspace.project);
	});
	afterEach(async () => {
		fixture.terminal?.kill();
		fixture.terminal = undefined;
		await state.server.close();
		state.workspace.remove();
	});
	return fixture;
}

/**
 * Starts interactive gantry against the fixture's server in a real terminal (`extra` arguments after the
 * model) and waits for its prompt (or for `options.waitFor`, e.g. a question asked before it).
 */
export async function startInteractiveGantry(
	fixture: InteractiveFixture,
	extra: string[] = [],
	options: { width?: number; waitFor?: string } = {},
): Promise<TmuxTerminal> {
	const { waitFor, ...size } = options;
	const { workspace, server } = fixture;
	const terminal = TmuxTerminal.start(
		[process.execPath, CLI_ENTRY, "--base-url", server.openaiBaseUrl, "--model", "scripted", ...extra],
		{ cwd: workspace.project, env: { HOME: workspace.home }, ...size },
	);
	fixture.terminal = terminal;
	await terminal.waitFor(waitFor ?? "Type a prompt");
	return terminal;
}
