import type { ToolInfo } from "@gantry/extensions";
import { isSandboxedWorkspace } from "@gantry/sandbox";

/** The builtin shell tools whose commands a sandboxed workspace runs in its OS sandbox. */
const SANDBOXED_SHELL_TOOLS: ReadonlySet<string> = new Set(["bash", "powershell"]);

/**
 * Whether a call may run without a question because the OS sandbox contains it (Claude Code's
 * `autoAllowBashIfSandboxed`): a builtin shell tool, on a workspace `createSandboxedWorkspace` made whose
 * sandbox is active and auto-allows, with a command the workspace will run inside the sandbox (not
 * excluded, not asked out with `dangerouslyDisableSandbox`). Deny rules are judged before this.
 */
export function runsSandboxedWithoutAsking(
	workspace: unknown,
	tool: Pick<ToolInfo, "source"> | undefined,
	toolName: string,
	input: Record<string, unknown>,
): boolean {
	if (!SANDBOXED_SHELL_TOOLS.has(toolName) || tool?.source !== "builtin") return false;
	if (!isSandboxedWorkspace(workspace) || !workspace.sandbox.active || !workspace.autoAllowBashIfSandboxed)
		return false;
	const command = input.command;
	if (typeof command !== "string") return false;
	return workspace.placeCommand(command, { unsandboxed: input.dangerouslyDisableSandbox === true }).sandboxed;
}
