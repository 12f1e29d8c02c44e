import { withoutUndefined } from "@gantry/ai";
import type { ExtensionWorkspace, ToolAnnotations } from "@gantry/extensions";
import type { PermissionMode } from "../settings/types.js";
import { CallPlaces, callAccessOf, coverAll, coversAny, mightJudge, pathsJudgedBy } from "./call-access.js";
import { gitConfigHostOf, shellGitMayRunPrograms } from "./git-config-risks.js";
import { isInsideProject, isProtectedPath, type PolicyModeName, permissionModeOf } from "./permission-modes.js";
import { type PermissionRule, parsePermissionRules, SHELL_TOOLS } from "./permission-rules.js";
import { isReadOnlyShellLine } from "./read-only-commands.js";
import { analyzeShellCommand, type ShellCommandAnalysis, type ShellSimpleCommand } from "./shell-analysis.js";
import { denyRulesJudgeShell, judgeShellDenyRules, type ShellDenyVerdict } from "./shell-judgement.js";
import { classifyTool } from "./tool-class.js";
import { EDIT_TOOLS } from "./tool-names.js";

/** Allow, deny and ask rules, parsed. */
export interface CompiledPermissionRules {
	allow: PermissionRule[];
	deny: PermissionRule[];
	ask?: PermissionRule[];
}

/** One call as the policy judges it: the tool as it is registered now, and the arguments that will run. */
export interface JudgedCall {
	toolName: string;
	input: Record<string, unknown>;
	cwd: string;
	annotations: ToolAnnotations | undefined;
	/**
	 * Where the tool comes from (`ToolInfo.source`): `"builtin"` calls are judged on the files they read and
	 * write (`Read(…)` and `Edit(…)` rules); any other tool's `path` argument is judged by rules naming it.
	 * Default `"builtin"` for the builtin names.
	 */
	source?: string | undefined;
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
	/**
	 * A decision made for this call before the rules (a PreToolUse hook's `permissionDecision`): `"deny"`
	 * blocks, `"ask"` asks like an ask rule, `"allow"` runs it like an allow rule. Deny rules, ask rules and
	 * plan mode still hold.
	 */
	hint?: { decision: "allow" | "deny" | "ask"; reason: string };
}

/** What decided a verdict: a rule, the mode, the tool's kind, or a check that could not be made. */
export type VerdictSource = "rule" | "hint" | "mode" | "sandbox" | "tool" | "unchecked";

/** What the policy decided for a call, and why (the rule that decided, when one did). */
export interface PermissionVerdict {
	decision: "allow" | "deny" | "ask";
	/** A phrase for people: `the deny rule Read(**\/.env)`, `plan mode`, `the tool is read-only`. */
	reason: string;
	rules: string[];
	/** What decided (see `VerdictSource`). */
	source?: VerdictSource;
	/** The mode the call was judged in. */
	mode?: PermissionMode;
	/** The parse of a shell call's command, when it was parsed. */
	shell?: ShellCommandAnalysis;
}

/** Parses the lists; throws `invalid_option` for a malformed rule. */
export function compilePermissionRules(
	allow: readonly string[] = [],
	deny: readonly string[] = [],
	ask: readonly string[] = [],
): CompiledPermissionRules {
	return {
		allow: parsePermissionRules(allow, "permissions.allow"),
		deny: parsePermissionRules(deny, "permissions.deny"),
		ask: parsePermissionRules(ask, "permissions.ask"),
	};
}

/** Whether a command rule matches one simple command (exactly, or by its first words for a prefix rule). */
export function commandMatches(rule: PermissionRule, command: ShellSimpleCommand): boolean {
	if (rule.kind !== "command") return false;
	const { words } = command;
	if (rule.prefix ? words.length < rule.words.length : words.length !== rule.words.length) return false;
	return rule.words.every((word, index) => words[index]?.literal === true && words[index]?.text === word);
}

/** A list of the parsed commands for people: `npm test · touch F`. */
export function describeShellCommands(analysis: ShellCommandAnalysis): string {
	return analysis.commands.map((command) => command.text).join(" · ");
}

/**
 * Whether the call only reads: the tool says it is read-only, or the shell line runs only known read-only
 * programs — and a git among them uses a repository whose own config names no program for git to run.
 */
async function isReadOnlyCall(
	call: JudgedCall,
	shell: ShellCommandAnalysis | undefined,
	places: CallPlaces,
): Promise<boolean> {
	if (classifyTool(call.annotations) === "read-only") return true;
	if (shell === undefined || !isReadOnlyShellLine(shell)) return false;
	return !(await shellGitMayRunPrograms(shell.commands, places.host.cwd, gitConfigHostOf(places.host)));
}

/**
 * Judges one call, as Claude Code orders it: deny rules first (a tool, any simple command of a shell line,
 * any path the call touches, as written or with links followed, on the call's workspace), then plan mode
 * (only read-only calls), then ask rules (the same way), then a hook's hint, then `bypassPermissions`,
 * then allow rules (every simple command matched and nothing else can run; every path the call changes
 * covered as written and with links followed), then `acceptEdits` (edits inside the project), then the
 * tool's annotations (read-only runs), and last the mode's default: ask, or deny in `dontAsk`. A check a
 * deny or ask rule needs but cannot make (an unparsable command, a patch whose files cannot be told) asks,
 * or blocks in `bypassPermissions` and `dontAsk`.
 */
export async function judgeCall(
	rules: CompiledPermissionRules,
	call: JudgedCall,
	modeName: PolicyModeName,
): Promise<PermissionVerdict> {
	const mode = permissionModeOf(modeName);
	const { toolName } = call;
	const named = (list: readonly PermissionRule[] | undefined) =>
		(list ?? []).filter((rule) => rule.kind === "path" || rule.matchesTool(toolName));
	const denyRules = named(rules.deny);
	const askRules = named(rules.ask);
	const allowRules = named(rules.allow);
	const builtin = (call.source ?? "builtin") === "builtin";
	const access = callAccessOf(toolName, call.input, builtin);
	const places = new CallPlaces(call.cwd, call.workspace);
	const command = typeof call.input.command === "string" ? call.input.command : undefined;
	const isShell = SHELL_TOOLS.has(toolName) && command !== undefined;
	const needsParse =
		mode !== "bypassPermissions" || denyRulesJudgeShell(denyRules, toolName) || denyRulesJudgeShell(askRules, toolName);
	const shell = isShell && needsParse ? await analyzeShellCommand(command) : undefined;
	const verdict = (
		decision: PermissionVerdict["decision"],
		source: VerdictSource,
		reason: string,
		decided: string[] = [],
	): PermissionVerdict => ({ decision, reason, rules: decided, source, mode, ...withoutUndefined({ shell }) });
	const covers = async (rule: PermissionRule): Promise<boolean> => {
		if (rule.kind === "tool") return true;
		if (rule.kind === "path") return coversAny(rule, toolName, access, places);
		if (rule.kind === "command") return shell?.commands.some((parsed) => commandMatches(rule, parsed)) === true;
		return false;
	};
	/** Where nobody will be asked: a check that cannot be made blocks. */
	const strict = mode === "bypassPermissions" || mode === "dontAsk";
	/** A deny or ask rule that would judge this call but cannot: the command did not parse, the paths are unknown. */
	const uncheckable = (list: readonly PermissionRule[]) =>
		list.find(
			(rule) =>
				(rule.kind === "command" && shell !== undefined && !shell.parsed) ||
				(rule.kind === "path" && "unknown" in access.paths && mightJudge(rule, toolName, access)),
		);
	const cannotCheck = (rule: PermissionRule, list: "deny" | "ask"): PermissionVerdict => {
		const what =
			rule.kind === "command"
				? "the command could not be parsed"
				: `the paths of the call cannot be told (${"unknown" in access.paths ? access.paths.unknown : ""})`;
		return verdict(
			strict ? "deny" : "ask",
			"unchecked",
			`${what}, so the ${list} rule ${rule.text} cannot be checked`,
			[rule.text],
		);
	};

	// Deny and ask rules on commands and paths as bash runs the line (wrappers, shells, links, redirections…).
	const judgeShell = (list: readonly PermissionRule[], name: "deny" | "ask"): Promise<ShellDenyVerdict | undefined> =>
		shell === undefined
			? Promise.resolve(undefined)
			: judgeShellDenyRules(shell, list, toolName, places.host, { sandboxed: call.sandboxed, list: name });

	for (const rule of denyRules) {
		if (await covers(rule)) return verdict("deny", "rule", `the deny rule ${rule.text}`, [rule.text]);
	}
	const shellDeny = await judgeShell(denyRules, "deny");
	if (shellDeny) {
		const decision = shellDeny.decision === "matched" || strict ? "deny" : "ask";
		return verdict(
			decision,
			shellDeny.decision === "matched" ? "rule" : "unchecked",
			shellDeny.reason,
			shellDeny.rules,
		);
	}
	const uncheckedDeny = uncheckable(denyRules);
	if (uncheckedDeny) return cannotCheck(uncheckedDeny, "deny");
	if (call.hint?.decision === "deny") return verdict("deny", "hint", call.hint.reason);

	// Asked only where a verdict turns on it: a git line's check reads its repository's config.
	let readOnlyCheck: Promise<boolean> | undefined;
	const readOnly = () => {
		readOnlyCheck ??= isReadOnlyCall(call, shell, places);
		return readOnlyCheck;
	};
	if (mode === "plan" && !(await readOnly())) {
		return verdict("deny", "mode", "plan mode (the session is planning: only read-only tools run)");
	}
	for (const rule of askRules) {
		if (await covers(rule)) {
			return verdict(mode === "dontAsk" ? "deny" : "ask", "rule", `the ask rule ${rule.text}`, [rule.text]);
		}
	}
	const shellAsk = await judgeShell(askRules, "ask");
	if (shellAsk) {
		const decision = mode === "dontAsk" || (shellAsk.decision === "unchecked" && strict) ? "deny" : "ask";
		return verdict(decision, shellAsk.decision === "matched" ? "rule" : "unchecked", shellAsk.reason, shellAsk.rules);
	}
	const uncheckedAsk = uncheckable(askRules);
	if (uncheckedAsk) return cannotCheck(uncheckedAsk, "ask");
	if (call.hint?.decision === "ask") return verdict(mode === "dontAsk" ? "deny" : "ask", "hint", call.hint.reason);
	if (call.hint?.decision === "allow") return verdict("allow", "hint", call.hint.reason);
	if (mode === "bypassPermissions") return verdict("allow", "mode", "bypassPermissions mode");

	const toolRule = allowRules.find((rule) => rule.kind === "tool");
	if (toolRule) return verdict("allow", "rule", `the allow rule ${toolRule.text}`, [toolRule.text]);
	const pathAllowed = await allowedByPathRules(allowRules, toolName, access, places);
	if (pathAllowed) {
		const texts = pathAllowed.map((rule) => rule.text);
		return verdict("allow", "rule", `the allow rule${texts.length > 1 ? "s" : ""} ${texts.join(", ")}`, texts);
	}
	if (shell && shell.problems.length === 0 && shell.commands.length > 0) {
		const matched = shell.commands.map((parsed) => allowRules.find((rule) => commandMatches(rule, parsed)));
		if (matched.every((rule) => rule !== undefined)) {
			const texts = [...new Set(matched.map((rule) => rule.text))];
			return verdict("allow", "rule", `the allow rule${texts.length > 1 ? "s" : ""} ${texts.join(", ")}`, texts);
		}
	}
	if (call.sandboxed === true) {
		return verdict("allow", "sandbox", "the command runs in the OS sandbox (autoAllowBashIfSandboxed)");
	}
	if (
		mode === "acceptEdits" &&
		builtin &&
		EDIT_TOOLS.includes(toolName) &&
		(await editsInsideProject(access, places))
	) {
		return verdict("allow", "mode", "acceptEdits mode (an edit inside the project)");
	}
	if (await readOnly()) {
		const onlyReads =
			classifyTool(call.annotations) === "read-only"
				? "the tool is read-only"
				: "the command only reads (known read-only programs)";
		return verdict("allow", "tool", onlyReads);
	}
	if (mode === "dontAsk") {
		return verdict("deny", "mode", "dontAsk mode (no allow rule covers the call, and the session does not ask)");
	}
	return verdict("ask", "tool", "the tool may change files or run commands");
}

/** The allow rules that cover the call's decisive paths (what it changes, else what it reads, else its own path). */
async function allowedByPathRules(
	allowRules: readonly PermissionRule[],
	toolName: string,
	access: Parameters<typeof pathsJudgedBy>[2],
	places: CallPlaces,
): Promise<PermissionRule[] | undefined> {
	const pathRules = allowRules.filter(
		(rule): rule is Extract<PermissionRule, { kind: "path" }> => rule.kind === "path",
	);
	if (pathRules.length === 0) return undefined;
	if ("unknown" in access.paths) return undefined;
	const { reads, writes } = access.paths;
	if (writes.length > 0) {
		return coverAll(
			pathRules.filter((rule) => rule.scope.access === "write"),
			writes,
			places,
		);
	}
	if (reads.length > 0) {
		const reading = pathRules.filter((rule) => pathsJudgedBy(rule, toolName, access).length > 0);
		return coverAll(reading, reads, places);
	}
	if (access.selfPath === undefined) return undefined;
	const own = pathRules.filter((rule) => rule.scope.access === "self" && rule.matchesTool(toolName));
	return coverAll(own, [access.selfPath], places);
}

/** Whether every file the edit changes is inside the project, none of it protected (`acceptEdits`). */
async function editsInsideProject(access: Parameters<typeof pathsJudgedBy>[2], places: CallPlaces): Promise<boolean> {
	if ("unknown" in access.paths || access.paths.writes.length === 0) return false;
	for (const typed of access.paths.writes) {
		const locations = await places.locate(typed);
		if (!isInsideProject(locations) || isProtectedPath(locations)) return false;
	}
	return true;
}
