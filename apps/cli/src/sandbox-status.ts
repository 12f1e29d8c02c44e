import type { AgentSession } from "@gantry/coding-agent";
import { isSandboxedWorkspace } from "@gantry/sandbox";

/**
 * One line saying whether bash runs in the OS sandbox: `Sandbox: on (…; from --sandbox)`, `Sandbox: NOT
 * active: <reason>; shell commands are refused`, or `Sandbox: off (…)`. `flag`: the run has `--sandbox`.
 */
export function describeSandbox(session: AgentSession, flag = false): string {
	const { workspace } = session;
	if (!isSandboxedWorkspace(workspace)) {
		return workspace.isLocal
			? "Sandbox: off (--sandbox or sandbox.enabled in the settings turns it on)"
			: `Sandbox: off (commands run on ${workspace.label}, under its own isolation)`;
	}
	const from = flag ? "; from --sandbox" : "; from sandbox.enabled in the settings";
	if (workspace.sandbox.active) {
		return `Sandbox: on (bash runs in the OS sandbox: writes only in the folder and the temp folder, no network unless allowed${from})`;
	}
	return `Sandbox: NOT active: ${workspace.sandbox.reason ?? "it did not start"}; shell commands are refused${from}`;
}
