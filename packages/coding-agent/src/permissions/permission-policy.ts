import type { Extension, ExtensionContext, ExtensionUI, ToolCallEvent } from "@gantry/extensions";
import { alwaysAllowOffer } from "./always-allow.js";
import {
	type CompiledPermissionRules,
	compilePermissionRules,
	describeShellCommands,
	judgeCall,
	type PermissionVerdict,
} from "./permission-decision.js";
import { type PermissionRule, type PermissionRules, parsePermissionRule } from "./permission-rules.js";
import { runsSandboxedWithoutAsking } from "./sandbox-auto-allow.js";

export interface PermissionPolicyOptions {
	/**
	 * `"ask"` (default): tools that may change things ask through `ctx.ui` when there is a UI and are
	 * blocked otherwise. `"yes"`: everything runs that no deny rule blocks (the CLI's `--yes`).
	 */
	mode?: "ask" | "yes";
	/**
	 * Allow and deny rules: `read`, `mcp__github__*`, `bash(npm test:*)`, `bash(git status)`,
	 * `edit(src/**)`. Deny beats allow. A malformed rule throws `invalid_option`.
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
}

/** Turns the options into parsed allow and deny rules (old options included); throws `invalid_option`. */
export function permissionRulesOf(options: PermissionPolicyOptions): CompiledPermissionRules {
	const prefixes = (options.allowCommandPrefixes ?? []).map((prefix) => prefix.trim()).filter(Boolean);
	return compilePermissionRules(
		[
			...(options.permissions?.allow ?? []),
			...(options.allowTools ?? []),
			...prefixes.map((prefix) => `bash(${prefix}:*)`),
		],
		options.permissions?.deny ?? [],
	);
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

/**
 * A permission policy as an extension, driven by allow/deny rules and tool annotations: deny rules
 * block; allow rules and read-only tools run; anything else asks (`ui.select`: Yes / No / Always …) when
 * there is a UI and is blocked otherwise. Every call is judged on the tool as it is registered at call
 * time and on the arguments it is about to run with; shell commands are judged on their parse (see
 * `analyzeShellCommand`). "Always" adds allow rules for the rest of the session: for a shell call the
 * prefixes of its commands (`Always allow "npm test" commands` adds `bash(npm test:*)`), offered only
 * when the parse shows nothing but simple commands with safe prefixes; for another tool the tool. Path
 * rules are judged on the session's workspace (`ctx.workspace`): its home for `~`, its links, its cwd.
 *
 * @example
 * createAgentSession({ cwd, model, extensions: [createPermissionPolicy({ permissions: { allow: ["bash(npm test:*)"] } })] });
 */
export function createPermissionPolicy(options: PermissionPolicyOptions = {}): Extension {
	const mode = options.mode ?? "ask";
	const configured = permissionRulesOf(options);
	const scope = options.alwaysAllowScope?.trim();
	const remembered: PermissionRule[] = [];
	const currentRules = (): CompiledPermissionRules =>
		remembered.length === 0 ? configured : { allow: [...configured.allow, ...remembered], deny: configured.deny };

	return (api) => {
		const judge = (event: ToolCallEvent, ctx: ExtensionContext) => {
			const tool = api.getToolInfo(event.toolName);
			return judgeCall(
				currentRules(),
				{
					toolName: event.toolName,
					input: event.input,
					cwd: ctx.cwd,
					annotations: tool?.annotations,
					workspace: ctx.workspace,
					sandboxed: runsSandboxedWithoutAsking(ctx.workspace, tool, event.toolName, event.input),
				},
				mode,
			);
		};
		let questions: Promise<unknown> = Promise.resolve();

		api.on("tool_call", async (event, ctx) => {
			const summary = describeCall(event);
			const known = remembered.length;
			const verdict = await judge(event, ctx);
			if (verdict.decision === "deny") {
				return { block: true, reason: `Blocked by the permission policy: ${summary} is denied by ${verdict.reason}.` };
			}
			if (verdict.decision === "allow") return undefined;
			if (!ctx.hasUI) {
				return {
					block: true,
					reason: `Blocked by the permission policy: ${summary} may change files or run commands (${[verdict.reason, ...describeParse(verdict)].join("; ")}), and there is no one to approve it. Re-run with --yes (or an allow rule) to permit it.`,
				};
			}
			// One question at a time; a call that waited is judged again, so an "always" given meanwhile covers it.
			const turn = questions.then(async () => {
				const current = remembered.length === known ? verdict : await judge(event, ctx);
				return current.decision === "allow" ? undefined : ask(event, ctx.ui, current, summary);
			});
			questions = turn.catch(() => undefined);
			return turn;
		});
	};

	async function ask(event: ToolCallEvent, ui: ExtensionUI, verdict: PermissionVerdict, summary: string) {
		const toolRules = currentRules().allow.filter((rule) => rule.matchesTool(event.toolName));
		const offer = alwaysAllowOffer(event.toolName, verdict, toolRules);
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
		ui.notify(
			`The answer "always" holds for this session only: ${error instanceof Error ? error.message : String(error)}`,
			"warning",
		);
	}
}
