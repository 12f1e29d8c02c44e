import path from "node:path";
import { createSandboxedWorkspace, isSandboxedWorkspace, type RuleDeny, SandboxError } from "@gantry/sandbox";
import type { Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import { type PermissionRule, parsePermissionRule } from "../permissions/permission-rules.js";
import type { AgentSessionOptions } from "./session-options.js";

/** Tools whose path rules keep a path from being read or written (Claude Code's Read and Edit, and write). */
const READ_TOOLS = ["read"];
const WRITE_TOOLS = ["edit", "write", "multiedit", "apply_patch"];

/** A path rule's pattern as an absolute path or glob, on this machine: `~/` home, else relative to `cwd`. */
function rulePath(pattern: string, cwd: string, home: string): string {
	if (pattern === "~") return home;
	if (pattern.startsWith("~/")) return path.join(home, pattern.slice(2));
	return path.isAbsolute(pattern) ? pattern : path.join(cwd, pattern.replace(/^\.\//, ""));
}

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
		if (rule.kind !== "path") continue;
		const entry = { path: rulePath(rule.pattern, cwd, home), source: `the deny rule ${rule.text}` };
		if (READ_TOOLS.some((tool) => rule.matchesTool(tool))) denyRead.push(entry);
		if (WRITE_TOOLS.some((tool) => rule.matchesTool(tool))) denyWrite.push(entry);
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
