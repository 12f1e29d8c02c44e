import { commandPrefixOf, commandPrefixRule } from "./command-prefix.js";
import { commandMatches, type PermissionVerdict } from "./permission-decision.js";
import { type PermissionRule, parsePermissionRule, SHELL_TOOLS } from "./permission-rules.js";
import type { ShellSimpleCommand } from "./shell-analysis.js";

/**
 * The third answer a permission question offers: its text and the allow rules it adds, or why there is
 * none (shown to the person, so it is a sentence fragment such as "`sudo` runs other commands…").
 */
export type AlwaysAllowOffer = { option: string; rules: string[] } | { option?: undefined; why: string };

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

function listed(labels: readonly string[]): string {
	const [only, ...others] = labels;
	if (only !== undefined && others.length === 0) return only;
	return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/** Whether the rule, parsed as a configured one would be, covers the command it was made from. */
function readsBackAs(rule: string, command: ShellSimpleCommand): boolean {
	try {
		return commandMatches(parsePermissionRule(rule), command);
	} catch {
		return false;
	}
}

/**
 * What "always" may remember for a call that asks. A shell call remembers the prefix of each of its
 * commands that no allow rule covers yet (see `commandPrefixOf`), as `bash(<prefix>:*)` rules, so later
 * calls are judged exactly like calls under such configured rules; a line whose parse has problems, or a
 * command with no safe prefix, offers nothing. Any other tool remembers the tool. `allowRules` are the
 * allow rules that name this tool now (configured and remembered).
 */
export function alwaysAllowOffer(
	toolName: string,
	verdict: PermissionVerdict,
	allowRules: readonly PermissionRule[],
): AlwaysAllowOffer {
	if (toolName === "powershell") {
		return { why: "powershell commands are not parsed, so no part of one can be remembered" };
	}
	if (!SHELL_TOOLS.has(toolName)) {
		if (TOOL_NAME.test(toolName)) return { option: `Always allow ${toolName}`, rules: [toolName] };
		return { why: `the tool name ${JSON.stringify(toolName)} cannot be written as a rule` };
	}
	const shell = verdict.shell;
	if (!shell) return { why: "the command was not parsed" };
	if (shell.problems.length > 0) {
		return { why: "the line does more than run commands (see Also), so it can only be approved once" };
	}
	if (shell.commands.length === 0) return { why: "the line runs no command" };
	const rules: string[] = [];
	const labels: string[] = [];
	for (const command of shell.commands) {
		if (allowRules.some((rule) => commandMatches(rule, command))) continue;
		const prefix = commandPrefixOf(command);
		if ("refused" in prefix) return { why: prefix.refused };
		const rule = commandPrefixRule(toolName, prefix.words);
		if (!readsBackAs(rule, command)) {
			return { why: `\`${command.text}\` cannot be written as a command rule` };
		}
		if (rules.includes(rule)) continue;
		rules.push(rule);
		labels.push(JSON.stringify(prefix.words.join(" ")));
	}
	if (rules.length === 0) return { why: "every command of the line is allowed already" };
	return { option: `Always allow ${listed(labels)} commands`, rules };
}
