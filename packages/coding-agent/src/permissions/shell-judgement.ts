import type { CallPathHost } from "./path-glob.js";
import type { PermissionRule } from "./permission-rules.js";
import type { ShellCommandAnalysis } from "./shell-analysis.js";
import { findDeniedShellCommand } from "./shell-deny.js";
import { findDeniedShellPath, pathRuleAccess } from "./shell-paths.js";
import { followShellLine } from "./shell-walk.js";

/** What a list of deny (or ask) rules found in a shell line: a rule that matches, or one that cannot be checked. */
export interface ShellDenyVerdict {
	/** `"matched"`: a rule covers something the line runs or touches; `"unchecked"`: a rule cannot be checked. */
	decision: "matched" | "unchecked";
	reason: string;
	rules: string[];
}

/** Whether any deny rule judges shell lines: a command rule naming the shell tool, or a read or edit path rule. */
export function denyRulesJudgeShell(denyRules: readonly PermissionRule[], toolName: string): boolean {
	return denyRules.some(
		(rule) =>
			(rule.kind === "command" && rule.matchesTool(toolName)) ||
			(rule.kind === "path" && pathRuleAccess(rule) !== undefined),
	);
}

/**
 * Judges a parsed shell line against every deny rule that applies to it: rules on commands naming the
 * shell tool (through wrappers, shells, `eval`, basenames and links; see `followShellLine`), and read and
 * edit rules on paths (the files the line names; see `findDeniedShellPath`). A line that may run or touch
 * what the parse cannot show is `unchecked` for the rules it could escape: the policy asks, or blocks
 * where nobody can answer, as for a line that does not parse — except for path rules when the command
 * runs in the OS sandbox (`sandboxed`), which holds them for anything it opens. Undefined when no deny
 * rule has a say. Ask rules are judged the same way (`list: "ask"` words the reasons for them).
 */
export async function judgeShellDenyRules(
	analysis: ShellCommandAnalysis,
	denyRules: readonly PermissionRule[],
	toolName: string,
	host: CallPathHost,
	options: { sandboxed?: boolean | undefined; list?: "deny" | "ask" } = {},
): Promise<ShellDenyVerdict | undefined> {
	const list = options.list ?? "deny";
	const commandRules = denyRules.filter((rule) => rule.kind === "command" && rule.matchesTool(toolName));
	const pathRules = denyRules.filter((rule) => rule.kind === "path" && pathRuleAccess(rule) !== undefined);
	if (commandRules.length === 0 && pathRules.length === 0) return undefined;
	const run = await followShellLine(analysis, host);
	const command = findDeniedShellCommand(run, commandRules);
	if (command) {
		return {
			decision: "matched",
			reason: `the ${list} rule ${command.rule.text} (${command.command})`,
			rules: [command.rule.text],
		};
	}
	const paths = await findDeniedShellPath(run, pathRules, host);
	if (paths.denied) {
		return {
			decision: "matched",
			reason: `the ${list} rule ${paths.denied.rule.text} (${paths.denied.what})`,
			rules: [paths.denied.rule.text],
		};
	}
	const hidden = run.unchecked[0];
	const unchecked = (rule: PermissionRule | undefined, why: string | undefined): ShellDenyVerdict | undefined =>
		rule === undefined || why === undefined
			? undefined
			: {
					decision: "unchecked",
					reason: `${why}, so the ${list} rule ${rule.text} cannot be checked`,
					rules: [rule.text],
				};
	const byAccess = (access: "read" | "write") =>
		pathRules.find((rule) => rule.kind === "path" && pathRuleAccess(rule) === access);
	// In the OS sandbox, read and edit deny rules hold for whatever the command opens: no need to ask.
	if (options.sandboxed === true) return unchecked(commandRules[0], hidden);
	return (
		unchecked(commandRules[0], hidden) ??
		unchecked(pathRules[0], hidden) ??
		unchecked(byAccess("read"), paths.unknown.read[0]) ??
		unchecked(byAccess("write"), paths.unknown.write[0])
	);
}
