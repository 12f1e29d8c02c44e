import type { PermissionRule } from "./permission-rules.js";
import { clip } from "./shell-text.js";
import type { RunCommand, ShellRun } from "./shell-walk.js";
import type { ShellWord } from "./shell-words.js";

/** A command rule (`bash(rm:*)`), as parsed. */
export type CommandRule = Extract<PermissionRule, { kind: "command" }>;

/** A deny rule on commands that matches a command a shell line runs, and that command. */
export interface DeniedShellCommand {
	rule: CommandRule;
	/** The command, and what ran it: `rm -rf x (run by sudo → bash -c)`. */
	command: string;
}

/** Whether the rule's words match `words` exactly, or as their first words for a prefix rule. */
function wordsMatch(rule: CommandRule, words: readonly ShellWord[]): boolean {
	if (rule.prefix ? words.length < rule.words.length : words.length !== rule.words.length) return false;
	return rule.words.every((word, index) => words[index]?.literal === true && words[index]?.text === word);
}

/**
 * The ways a command's words may line up with a rule: as written, and with the options before a
 * sub-command left out (`git -C . --no-pager push` is `git push` to `bash(git push:*)`). Any operand may
 * be where the rule's next word belongs when every word before it is an option or may be the value of
 * the option just before it. Matching a deny rule in any of them is enough.
 */
function alignments(program: ShellWord, args: readonly ShellWord[]): ShellWord[][] {
	const variants = [[program, ...args]];
	for (let index = 0; index < args.length; index++) {
		const word = args[index];
		const previous = args[index - 1];
		const isOption = word?.literal === true && word.text.startsWith("-");
		const mayBeValue = previous?.literal === true && previous.text.startsWith("-") && !previous.text.includes("=");
		if (!isOption && !mayBeValue) break;
		if (index + 1 < args.length) variants.push([program, ...args.slice(index + 1)]);
	}
	return variants;
}

function matchingRule(rules: readonly CommandRule[], command: RunCommand): CommandRule | undefined {
	const written = rules.find((rule) => wordsMatch(rule, command.words));
	if (written) return written;
	for (const name of command.names) {
		for (const aligned of alignments({ text: name, literal: true }, command.args)) {
			const rule = rules.find((candidate) => wordsMatch(candidate, aligned));
			if (rule) return rule;
		}
	}
	return undefined;
}

/**
 * The first command of the line's run (see `followShellLine`) that a deny rule on commands matches: as
 * written (assignments included), or by a name it runs under (`/bin/rm` and `./rm` are `rm`, a link is
 * where it leads) with the options before a sub-command left out. Commands run by wrappers, shells and
 * `eval` count like those written in the line.
 */
export function findDeniedShellCommand(
	run: ShellRun,
	rules: readonly PermissionRule[],
): DeniedShellCommand | undefined {
	const commandRules = rules.filter((rule): rule is CommandRule => rule.kind === "command");
	for (const command of run.commands) {
		const rule = matchingRule(commandRules, command);
		if (rule === undefined) continue;
		const through = command.via.length > 0 ? ` (run by ${command.via.join(" → ")})` : "";
		return { rule, command: `${clip(command.text)}${through}` };
	}
	return undefined;
}
