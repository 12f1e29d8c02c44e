import { createSandboxedWorkspace, isSandboxedWorkspace, type RuleDeny, SandboxError } from "@gantry/sandbox";
import type { Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import { absoluteRuleGlobs } from "../permissions/path-glob.js";
import { type PermissionRule, parsePermissionRule } from "../permissions/permission-rules.js";
import type { AgentSessionOptions } from "./session-options.js";

/**
 * The deny rules on paths that join the sandbox's lists, as in Claude Code: `Read(…)` rules its `denyRead`,
 * `Edit(…)` (and write) rules its `denyWrite`, so that they hold for anything a command does too.
 */
export function ruleDenies(
	deny: readonly string[],
	cwd: string,
	home: string,
): { denyRead: RuleDeny[]; denyWrite: RuleDeny[] } {
	const denyRead: RuleDeny[] = [];
	const denyWrite: RuleDeny[] = [];
	for (const text of deny) {
		let rule: PermissionRule;
		try {
			rule = parsePermissionRule(text);
		} catch {
			continue; // The policy reports a malformed rule; the sandbox has nothing to add for it.
		}
		// Read(…) and Edit(…)/Write(…) rules hold for every read and write; Grep(…) and the like name one tool's calls.
		if (rule.kind !== "path" || rule.scope.access === "self" || "tool" in rule.scope) continue;
		const list = rule.scope.access === "read" ? denyRead : denyWrite;
		for (const glob of absoluteRuleGlobs(rule.pattern, { cwd, home }, true)) {
			list.push({ path: glob, source: `the deny rule ${rule.text}` });
		}
	}
	return { denyRead, denyWrite };
}

/**
 * The session's workspace with `settings.sandbox` applied: wrapped by `createSandboxedWorkspace` when the
 * sandbox is enabled (with the deny rules on paths joining its lists, and the tools' own output folders
 * writable for the file tools), else as it is. A remote workspace with the sandbox enabled is refused:
 * the OS sandbox contains commands on this machine only. Throws `CodingAgentError` `invalid_option`.
 */
export async function sandboxWorkspace(
	workspace: Workspace,
	options: AgentSessionOptions,
): Promise<{ workspace: Workspace; wrapped: boolean }> {
	const sandbox = options.settings?.sandbox;
	if (sandbox?.enabled !== true || isSandboxedWorkspace(workspace)) return { workspace, wrapped: false };
	if (!workspace.isLocal) {
		throw new CodingAgentError(
			"invalid_option",
			`The OS sandbox (sandbox.enabled, --sandbox) contains commands on this machine only, and this session's workspace is ${workspace.label}. The remote host's own isolation applies there: turn the sandbox off for this session (remove --sandbox, or set sandbox.enabled to false).`,
		);
	}
	const denies = ruleDenies(options.settings?.permissions?.deny ?? [], workspace.cwd, workspace.home);
	const outputFolders = [options.toolOptions?.bash?.tempDir, options.toolOptions?.powershell?.tempDir].filter(
		(folder): folder is string => typeof folder === "string",
	);
	try {
		const sandboxed = await createSandboxedWorkspace(workspace, sandbox, {
			...denies,
			outputFolders,
			closeInner: options.keepWorkspaceOpen !== true,
		});
		return { workspace: sandboxed, wrapped: true };
	} catch (error) {
		if (error instanceof SandboxError) {
			throw new CodingAgentError("invalid_option", error.message, { cause: error });
		}
		throw error;
	}
}
