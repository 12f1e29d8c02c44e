import { errorText } from "@gantry/ai";
import type { Extension, ExtensionContext, ExtensionUI, ToolCallEvent } from "@gantry/extensions";
import type { PermissionMode } from "../settings/types.js";
import { alwaysAllowOffer } from "./always-allow.js";
import {
	type CompiledPermissionRules,
	compilePermissionRules,
	describeShellCommands,
	judgeCall,
	type PermissionVerdict,
} from "./permission-decision.js";
import type { PermissionHints } from "./permission-hints.js";
import { type PolicyModeName, permissionModeOf } from "./permission-modes.js";
import { type PermissionRule, type PermissionRules, parsePermissionRule } from "./permission-rules.js";
import { runsSandboxedWithoutAsking } from "./sandbox-auto-allow.js";

export interface PermissionPolicyOptions {
	/**
	 * How calls no rule settles are decided (Claude Code's permission modes): `"default"` asks (blocked
	 * without a UI); `"acceptEdits"` also runs edit, write and apply_patch inside the project; `"plan"` runs
	 * only read-only tools; `"bypassPermissions"` runs everything deny and ask rules do not cover; `"dontAsk"`
	 * denies what no allow rule covers. `"ask"` and `"yes"` are the older names of `"default"` and
	 * `"bypassPermissions"` (the CLI's `--yes`). A function is asked at every call (a mode the person
	 * switches). Default `"default"`; an unknown name throws `invalid_option`.
	 */
	mode?: PolicyModeName | (() => PermissionMode);
	/**
	 * Allow, deny and ask rules: `Read`, `mcp__github__*`, `Bash(npm test:*)`, `bash(git status)`,
	 * `Edit(src/**)`, `Read(**\/.env)`. Deny beats ask, ask beats allow. A malformed rule throws `invalid_option`.
	 */
	permissions?: PermissionRules;
	/** Tool names (exact or `*` patterns) that always run; the same as tool rules in `permissions.allow`. */
	allowTools?: string[];
	/**
	 * Bash commands that start with one of these words always run; the same as `bash(<prefix>:*)` in
	 * `permissions.allow`, so judged on the command's parse (`npm test && touch F` is not allowed).
	 */
	allowCommandPrefixes?: string[];
	/**
	 * Called after the person answers "always", with the allow rules that answer added for the rest of the
	 * session: `["bash(npm test:*)"]` for a shell call (one rule per command prefix), `["write"]` for another
	 * tool. Use it to keep the rules beyond the session or to show them. May throw or reject: the call still
	 * runs, the rules still hold for the session, and the error is shown with `ui.notify`.
	 */
	onAlwaysAllow?: (rules: string[]) => void | Promise<void>;
	/**
	 * Words added to the "always" answer that say how long it holds when `onAlwaysAllow` keeps the rules,
	 * e.g. `"in this project"` gives `Always allow "npm test" commands in this project`. Default: none.
	 */
	alwaysAllowScope?: string;
	/**
	 * Decisions made for a call before the policy judges it (PreToolUse hooks): see `PermissionHints`. The
	 * handler that sets them must run before the policy's. Default: none.
	 */
	hints?: PermissionHints;
}

/** Turns the options into parsed allow, deny and ask rules (old options included); throws `invalid_option`. */
export function permissionRulesOf(options: PermissionPolicyOptions): CompiledPermissionRules {
	const prefixes = (options.allowCommandPrefixes ?? []).map((prefix) => prefix.trim()).filter(Boolean);
	return compilePermissionRules(
		[
			...(options.permissions?.allow ?? []),
			...(options.allowTools ?? []),
			...prefixes.map((prefix) => `bash(${prefix}:*)`),
		],
		options.permissions?.deny ?? [],
		options.permissions?.ask ?? [],
	);
}

/** The policy's mode as a getter; a fixed name is checked once, here. */
export function policyModeGetter(mode: PermissionPolicyOptions["mode"]): () => PermissionMode {
	if (typeof mode === "function") return mode;
	const fixed = permissionModeOf(mode, "The permission policy's mode");
	return () => fixed;
}

const CALL_PREVIEW_CHARS = 120;

function describeCall(event: ToolCallEvent): string {
	const command = event.input.command;
	if (typeof command === "string") {
		const shown = command.length > CALL_PREVIEW_CHARS ? `${command.slice(0, CALL_PREVIEW_CHARS - 3)}...` : command;
		return `${event.toolName} \`${shown}\``;
	}
	const path = event.input.path;
	if (typeof path === "string") return `${event.toolName} on ${path}`;
	return event.toolName;
}

/** The question's details: the parsed commands and what kept the rules from deciding. */
function describeParse(verdict: PermissionVerdict): string[] {
	const shell = verdict.shell;
	if (!shell) return [];
	const lines: string[] = [];
	if (shell.commands.length > 0) lines.push(`Runs: ${describeShellCommands(shell)}`);
	if (shell.problems.length > 0) lines.push(`Also: ${shell.problems.join("; ")}`);
	return lines.map((line) => (line.length > 400 ? `${line.slice(0, 399)}…` : line));
}

/** The reason the model sees for a call the policy blocks. */
function blockedReason(verdict: PermissionVerdict, summary: string): string {
	if (verdict.source === "mode" && verdict.mode === "plan") {
		return `Blocked: the session is planning (plan mode), so only read-only tools run and ${summary} did not run. Describe the change you would make instead; the user leaves plan mode to let it run.`;
	}
	if (verdict.source === "mode") return `Blocked by the permission policy: ${summary} is denied by ${verdict.reason}.`;
	if (verdict.source === "hint") return `Blocked: ${verdict.reason}.`;
	if (verdict.source === "unchecked") return `Blocked by the permission policy: ${summary}: ${verdict.reason}.`;
	return `Blocked by the permission policy: ${summary} is denied by ${verdict.reason}.`;
}

/** The reason for a call that would ask when no one can answer. */
function unansweredReason(verdict: PermissionVerdict, summary: string): string {
	const why = [verdict.reason, ...describeParse(verdict)].join("; ");
	if (verdict.source === "rule" || verdict.source === "hint" || verdict.source === "unchecked") {
		return `Blocked by the permission policy: ${summary} must be approved (${why}), and there is no one to approve it.`;
	}
	return `Blocked by the permission policy: ${summary} may change files or run commands (${why}), and there is no one to approve it. Re-run with --yes (or an allow rule) to permit it.`;
}

/**
 * A permission policy as an extension, driven by allow, ask and deny rules, the permission mode and tool
 * annotations: deny rules block; ask rules ask; allow rules and read-only tools run; anything else asks
 * (`ui.select`: Yes / No / Always …) when there is a UI and is blocked otherwise — as the mode says (see
 * `mode`). Every call is judged on the tool as it is registered at call time and on the arguments it is
 * about to run with; shell commands are judged on their parse (see `analyzeShellCommand`), and a builtin's
 * call on every file it reads and writes. "Always" adds allow rules for the rest of the session: for a shell
 * call the prefixes of its commands (`Always allow "npm test" commands` adds `bash(npm test:*)`), offered
 * only when the parse shows nothing but simple commands with safe prefixes; for another tool the tool; never
 * for a call an ask rule asks about. Path rules are judged on the session's workspace (`ctx.workspace`): its
 * home for `~`, its links, its cwd.
 *
 * @example
 * createAgentSession({ cwd, model, extensions: [createPermissionPolicy({ permissions: { allow: ["Bash(npm test:*)"] } })] });
 */
export function createPermissionPolicy(options: PermissionPolicyOptions = {}): Extension {
	const getMode = policyModeGetter(options.mode);
	const configured = permissionRulesOf(options);
	const scope = options.alwaysAllowScope?.trim();
	const remembered: PermissionRule[] = [];
	const currentRules = (): CompiledPermissionRules =>
		remembered.length === 0 ? configured : { ...configured, allow: [...configured.allow, ...remembered] };

	return (api) => {
		const judge = (event: ToolCallEvent, ctx: ExtensionContext) => {
			// The event carries the tool as registered when the call was made; a host that does not fill it in
			// is asked instead.
			const info = event.tool ?? api.getToolInfo(event.toolName);
			const hint = options.hints?.get(event);
			return judgeCall(
				currentRules(),
				{
					toolName: event.toolName,
					input: event.input,
					cwd: ctx.cwd,
					annotations: info?.annotations,
					source: info?.source,
					workspace: ctx.workspace,
					sandboxed: runsSandboxedWithoutAsking(ctx.workspace, info, event.toolName, event.input),
					...(hint === undefined ? {} : { hint }),
				},
				getMode(),
			);
		};
		let questions: Promise<unknown> = Promise.resolve();

		api.on("tool_call", async (event, ctx) => {
			const summary = describeCall(event);
			const known = remembered.length;
			const verdict = await judge(event, ctx);
			if (verdict.decision === "deny") return { block: true, reason: blockedReason(verdict, summary) };
			if (verdict.decision === "allow") return undefined;
			if (!ctx.hasUI) return { block: true, reason: unansweredReason(verdict, summary) };
			// One question at a time; a call that waited is judged again, so an "always" given meanwhile covers it.
			const turn = questions.then(async () => {
				const current = remembered.length === known ? verdict : await judge(event, ctx);
				if (current.decision === "deny") return { block: true, reason: blockedReason(current, summary) };
				return current.decision === "allow" ? undefined : ask(event, ctx.ui, current, summary);
			});
			questions = turn.catch(() => undefined);
			return turn;
		});
	};

	async function ask(event: ToolCallEvent, ui: ExtensionUI, verdict: PermissionVerdict, summary: string) {
		const toolRules = currentRules().allow.filter((rule) => rule.matchesTool(event.toolName));
		// An ask rule (or a hook) asks every time: an "always" answer would be a rule the ask rule beats anyway.
		const offer =
			verdict.source === "tool"
				? alwaysAllowOffer(event.toolName, verdict, toolRules)
				: { why: `${verdict.reason} asks every time` };
		const always = offer.option === undefined ? undefined : [offer.option, scope].filter(Boolean).join(" ");
		const why = offer.option === undefined ? [`No "always": ${offer.why}.`] : [];
		const title = [`Allow ${summary}?`, ...describeParse(verdict), ...why].join("\n");
		const answer = await ui.select(title, always === undefined ? ["Yes", "No"] : ["Yes", "No", always]);
		if (offer.option !== undefined && answer === always) {
			const added = offer.rules.filter((rule) => !remembered.some((known) => known.text === rule));
			remembered.push(...added.map(parsePermissionRule));
			if (added.length > 0) await reportAlways(options, added, ui);
			return undefined;
		}
		if (answer === "Yes") return undefined;
		return { block: true, reason: `The user declined ${summary}.` };
	}
}

async function reportAlways(options: PermissionPolicyOptions, rules: string[], ui: ExtensionUI): Promise<void> {
	try {
		await options.onAlwaysAllow?.(rules);
	} catch (error) {
		ui.notify(`The answer "always" holds for this session only: ${errorText(error)}`, "warning");
	}
}
