import { withoutUndefined } from "@gantry/ai";
import type { ExtensionWorkspace, ToolAnnotations } from "@gantry/extensions";
import { globCovers, localCallPathHost, locateCallPath, workspaceCallPathHost } from "./path-glob.js";
import { type PermissionRule, parsePermissionRules, SHELL_TOOLS } from "./permission-rules.js";
import { isReadOnlyShellLine } from "./read-only-commands.js";
import { analyzeShellCommand, type ShellCommandAnalysis, type ShellSimpleCommand } from "./shell-analysis.js";
import { denyRulesJudgeShell, judgeShellDenyRules } from "./shell-judgement.js";
import { classifyTool } from "./tool-class.js";

/** Allow and deny rules, parsed. */
export interface CompiledPermissionRules {
	allow: PermissionRule[];
	deny: PermissionRule[];
}

/** One call as the policy judges it: the tool as it is registered now, and the arguments that will run. */
export interface JudgedCall {
	toolName: string;
	input: Record<string, unknown>;
	cwd: string;
	annotations: ToolAnnotations | undefined;
	/**
	 * The host the tool acts on (`ctx.workspace`): paths are resolved, `~` expanded and links followed
	 * there, relative to its `cwd`. Without it, on this machine relative to `cwd`.
	 */
	workspace?: ExtensionWorkspace | undefined;
	/**
	 * The call is a shell command the OS sandbox will contain and whose settings let it run without a
	 * question (`sandbox.autoAllowBashIfSandboxed`); see `runsSandboxedWithoutAsking`. Deny rules still block.
	 */
	sandboxed?: boolean;
}

/** What the policy decided for a call, and why (the rule that decided, when one did). */
export interface PermissionVerdict {
	decision: "allow" | "deny" | "ask";
	reason: string;
	rules: string[];
	/** The parse of a shell call's command, when it was parsed. */
	shell?: ShellCommandAnalysis;
}

/** Parses both lists; throws `invalid_option` for a malformed rule. */
export function compilePermissionRules(
	allow: readonly string[] = [],
	deny: readonly string[] = [],
): CompiledPermissionRules {
	return {
		allow: parsePermissionRules(allow, "permissions.allow"),
		deny: parsePermissionRules(deny, "permissions.deny"),
	};
}

/** Whether a command rule matches one simple command (exactly, or by its first words for a prefix rule). */
export function commandMatches(rule: PermissionRule, command: ShellSimpleCommand): boolean {
	if (rule.kind !== "command") return false;
	const { words } = command;
	if (rule.prefix ? words.length < rule.words.length : words.length !== rule.words.length) return false;
	return rule.words.every((word, index) => words[index].literal && words[index].text === word);
}

/** A list of the parsed commands for people: `npm test · touch F`. */
export function describeShellCommands(analysis: ShellCommandAnalysis): string {
	return analysis.commands.map((command) => command.text).join(" · ");
}

/**
 * Judges one call: deny rules first (any simple command of a shell line, or the path as written or with
 * links followed, on the call's workspace), then `yes` mode, then allow rules (every simple command matched and nothing else can
 * run; the path as written and with links followed), then the tool's annotations (read-only runs).
 */
export async function judgeCall(
	rules: CompiledPermissionRules,
	call: JudgedCall,
	mode: "ask" | "yes",
): Promise<PermissionVerdict> {
	const denyRules = rules.deny.filter((rule) => rule.matchesTool(call.toolName));
	const allowRules = rules.allow.filter((rule) => rule.matchesTool(call.toolName));
	const command = typeof call.input.command === "string" ? call.input.command : undefined;
	const isShell = SHELL_TOOLS.has(call.toolName) && command !== undefined;
	const judgesShell = isShell && (mode === "ask" || denyRulesJudgeShell(rules.deny, call.toolName));
	const shell = judgesShell ? await analyzeShellCommand(command) : undefined;
	const path = typeof call.input.path === "string" ? call.input.path : undefined;
	const needsPath = path !== undefined && [...denyRules, ...allowRules].some((rule) => rule.kind === "path");
	const host = call.workspace ? workspaceCallPathHost(call.workspace) : localCallPathHost(call.cwd);
	const locations = needsPath ? await locateCallPath(host, path) : undefined;
	const verdict = (decision: PermissionVerdict["decision"], reason: string, decided: string[] = []) => ({
		decision,
		reason,
		rules: decided,
		...withoutUndefined({ shell }),
	});

	for (const rule of denyRules) {
		if (rule.kind === "tool") return verdict("deny", `the deny rule ${rule.text}`, [rule.text]);
		if (rule.kind === "path" && locations && globCovers(rule.pattern, locations, false)) {
			return verdict("deny", `the deny rule ${rule.text}`, [rule.text]);
		}
		if (rule.kind === "command" && shell?.commands.some((parsed) => commandMatches(rule, parsed))) {
			return verdict("deny", `the deny rule ${rule.text}`, [rule.text]);
		}
	}
	// Deny rules on commands and paths as bash runs the line (wrappers, shells, links, redirections…).
	const shellDeny = shell
		? await judgeShellDenyRules(shell, rules.deny, call.toolName, host, { sandboxed: call.sandboxed })
		: undefined;
	if (shellDeny) {
		return verdict(
			shellDeny.decision === "matched" || mode === "yes" ? "deny" : "ask",
			shellDeny.reason,
			shellDeny.rules,
		);
	}
	if (mode === "yes") return verdict("allow", "yes mode");

	const toolRule = allowRules.find((rule) => rule.kind === "tool");
	if (toolRule) return verdict("allow", `the allow rule ${toolRule.text}`, [toolRule.text]);
	const pathRule =
		locations && allowRules.find((rule) => rule.kind === "path" && globCovers(rule.pattern, locations, true));
	if (pathRule) return verdict("allow", `the allow rule ${pathRule.text}`, [pathRule.text]);
	if (shell && shell.problems.length === 0 && shell.commands.length > 0) {
		const matched = shell.commands.map((parsed) => allowRules.find((rule) => commandMatches(rule, parsed)));
		if (matched.every((rule) => rule !== undefined)) {
			const texts = [...new Set(matched.map((rule) => rule.text))];
			return verdict("allow", `the allow rule${texts.length > 1 ? "s" : ""} ${texts.join(", ")}`, texts);
		}
	}
	if (call.sandboxed === true) return verdict("allow", "the command runs in the OS sandbox (autoAllowBashIfSandboxed)");
	if (shell && isReadOnlyShellLine(shell)) return verdict("allow", "the command only reads (known read-only programs)");
	if (classifyTool(call.annotations) === "read-only") return verdict("allow", "the tool is read-only");
	return verdict("ask", "the tool may change files or run commands");
}
