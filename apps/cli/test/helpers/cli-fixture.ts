import { type ScriptedLlmServer, startScriptedLlmServer } from "@gantry/ai/testing";
import { afterEach, beforeEach } from "vitest";
import { makeWorkspace } from "./run-cli.js";

export type CliWorkspace = ReturnType<typeof makeWorkspace>;

/**
 * Gives every test of the file a fresh workspace and scripted model server (through `set`, called before
 * each test), and closes and removes both after it.
 */
export function useCliFixture(set: (workspace: CliWorkspace, server: ScriptedLlmServer) => void): void {
	let current: { workspace: CliWorkspace; server: ScriptedLlmServer } | undefined;
	beforeEach(async () => {
		current = { workspace: makeWorkspace(), server: await startScriptedLlmServer() };
		set(current.workspace, current.server);
	});
	afterEach(async () => {
		await current?.server.close();
		current?.workspace.remove();
		current = undefined;
	});
}
