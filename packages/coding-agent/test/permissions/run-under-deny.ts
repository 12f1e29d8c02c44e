import { createFauxModel } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";
import { createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { textOf, toolResults } from "../session/helpers.js";

/** A tool call as the faux model sends it. */
export type ScriptedCall = { name: string; arguments: Record<string, unknown> };

export const editCall = (path: string): ScriptedCall => ({
	name: "edit",
	arguments: { path, edits: [{ oldText: "one", newText: "two" }] },
});
export const writeCall = (path: string): ScriptedCall => ({ name: "write", arguments: { path, content: "written\n" } });

/**
 * Runs `calls` in one turn under `deny` in yes mode (what is not denied runs), on a folder or a workspace,
 * with edit, write and read active. Returns, per call, "ran" or the error text it got.
 */
export async function runUnderDeny(
	where: { cwd: string } | { workspace: Workspace },
	deny: string[],
	calls: ScriptedCall[],
): Promise<string[]> {
	const model = createFauxModel([{ toolCalls: calls }, { text: "done" }]);
	const session = await createAgentSession({
		...where,
		model,
		tools: ["edit", "write", "read"],
		extensions: [createPermissionPolicy({ mode: "yes", permissions: { deny } })],
	});
	try {
		await session.prompt("go");
		return toolResults(session.messages).map((result) => (result.isError ? textOf(result) : "ran"));
	} finally {
		await session.dispose();
	}
}
