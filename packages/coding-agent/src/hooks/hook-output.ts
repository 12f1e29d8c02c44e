import type { HookEventName } from "../settings/types.js";
import type { HookProcessResult } from "./hook-process.js";

/** What one hook's run asks for, read from its exit code and output (Claude Code's contract). */
export interface HookOutcome {
	/** The hook as people see it: its command, cut short. */
	hook: string;
	/**
	 * Exit 2's stderr, or `decision: "block"`'s reason: blocks the call (PreToolUse), is fed back to the model
	 * (PostToolUse, PostToolUseFailure), blocks the prompt (UserPromptSubmit), makes the agent go on (Stop).
	 */
	block?: string;
	/** PreToolUse's `permissionDecision` and its reason. */
	permission?: { decision: "allow" | "deny" | "ask"; reason?: string };
	/** PreToolUse's `updatedInput`, in the names of the view the hook was shown. */
	updatedInput?: unknown;
	/** `additionalContext`, or the plain stdout of UserPromptSubmit and SessionStart: added for the model. */
	context?: string;
	/** `continue: false`: the agent stops; `stopReason` (or "") is shown to the user. */
	stop?: string;
	/** `systemMessage`, shown to the user. */
	systemMessage?: string;
	/** A non-blocking error, shown to the user: the hook failed, timed out or printed something unreadable. */
	error?: string;
}

/** Most characters of any text a hook hands on (context, reasons, messages), as in Claude Code. */
export const HOOK_OUTPUT_LIMIT_CHARS = 10_000;

const HOOK_LABEL_CHARS = 80;
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "SessionStart"]);
const EXIT_TWO_SHOWN_TO_USER_ONLY: ReadonlySet<HookEventName> = new Set(["SessionStart", "SessionEnd"]);
const PERMISSION_DECISIONS = new Set(["allow", "deny", "ask"]);

/** `text` cut to `HOOK_OUTPUT_LIMIT_CHARS`, saying how much was left out. */
export function cutHookText(text: string): string {
	if (text.length <= HOOK_OUTPUT_LIMIT_CHARS) return text;
	return `${text.slice(0, HOOK_OUTPUT_LIMIT_CHARS)}\n[cut: ${text.length - HOOK_OUTPUT_LIMIT_CHARS} more characters]`;
}

/** The command as messages name it. */
export function hookLabel(command: string): string {
	const line = command.replace(/\s+/g, " ").trim();
	return line.length > HOOK_LABEL_CHARS ? `${line.slice(0, HOOK_LABEL_CHARS - 1)}…` : line;
}

/**
 * Reads one run: exit 2 blocks with stderr; another non-zero code, a timeout or a failed start is a
 * non-blocking error; exit 0 reads stdout as JSON when it starts with `{` (an unreadable object is a
 * non-blocking error and is ignored), else as plain text (context for UserPromptSubmit and SessionStart).
 * Returns undefined for a run the session's abort stopped.
 */
export function readHookOutcome(
	event: HookEventName,
	command: string,
	timeoutSeconds: number,
	run: HookProcessResult,
): HookOutcome | undefined {
	const hook = hookLabel(command);
	const failed = (why: string): HookOutcome => ({ hook, error: cutHookText(`The ${event} hook \`${hook}\` ${why}`) });
	if (run.aborted) return undefined;
	if (run.timedOut) return failed(`did not finish within ${timeoutSeconds} s and was stopped; it was ignored.`);
	if (run.startError !== undefined) return failed(`could not start: ${run.startError}`);
	const stderr = run.stderr.trim();
	if (run.exitCode === 2) {
		if (EXIT_TWO_SHOWN_TO_USER_ONLY.has(event)) return failed(`exited with code 2: ${stderr || "no stderr output"}`);
		return { hook, block: cutHookText(stderr || `the hook \`${hook}\` exited with code 2 and gave no reason`) };
	}
	if (run.exitCode !== 0) {
		return failed(`failed with exit code ${String(run.exitCode)}: ${stderr || "no stderr output"}`);
	}
	// A byte-order mark some editors and PowerShell put first is not part of the JSON.
	const stdout = run.stdout.replace(/^\uFEFF/, "").trim();
	if (!stdout.startsWith("{")) {
		return PLAIN_STDOUT_IS_CONTEXT.has(event) && stdout !== "" ? { hook, context: cutHookText(stdout) } : { hook };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(stdout);
	} catch (error) {
		return failed(`printed output that is not valid JSON (${(error as Error).message}); it was ignored.`);
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
		return failed("printed JSON that is not an object; it was ignored.");
	}
	return readJsonOutput(event, hook, parsed as Record<string, unknown>);
}

/** The fields of a JSON answer, each checked; a field of the wrong type is reported and left out. */
function readJsonOutput(event: HookEventName, hook: string, output: Record<string, unknown>): HookOutcome {
	const outcome: HookOutcome = { hook };
	const problems: string[] = [];
	const text = (value: unknown, field: string): string | undefined => {
		if (value === undefined || value === null) return undefined;
		if (typeof value === "string") return value;
		problems.push(`${field} must be a string`);
		return undefined;
	};
	if (output.continue === false) outcome.stop = cutHookText(text(output.stopReason, "stopReason") ?? "");
	const systemMessage = text(output.systemMessage, "systemMessage");
	if (systemMessage) outcome.systemMessage = cutHookText(systemMessage);
	const specific =
		typeof output.hookSpecificOutput === "object" && output.hookSpecificOutput !== null
			? (output.hookSpecificOutput as Record<string, unknown>)
			: {};
	const context = text(specific.additionalContext, "hookSpecificOutput.additionalContext");
	if (context) outcome.context = cutHookText(context);
	const reason = text(output.reason, "reason");
	if (output.decision !== undefined && output.decision !== null) {
		if (output.decision === "block") {
			if (event === "PreToolUse") outcome.permission = withReason("deny", reason);
			else outcome.block = cutHookText(reason || `the hook \`${hook}\` gave no reason`);
		} else if (output.decision === "approve" && event === "PreToolUse") {
			outcome.permission = withReason("allow", reason);
		} else {
			problems.push(`decision must be "block"${event === "PreToolUse" ? ' or "approve"' : ""}`);
		}
	}
	if (event === "PreToolUse") {
		const decision = specific.permissionDecision;
		if (decision !== undefined && decision !== null) {
			if (typeof decision === "string" && PERMISSION_DECISIONS.has(decision)) {
				const why = text(specific.permissionDecisionReason, "hookSpecificOutput.permissionDecisionReason");
				outcome.permission = withReason(decision as "allow" | "deny" | "ask", why);
			} else {
				problems.push('hookSpecificOutput.permissionDecision must be "allow", "deny" or "ask"');
			}
		}
		if (specific.updatedInput !== undefined && specific.updatedInput !== null) {
			outcome.updatedInput = specific.updatedInput;
		}
	}
	if (problems.length > 0) {
		outcome.error = `The ${event} hook \`${hook}\` answered with JSON Gantry could not use in full (${problems.join("; ")}); those fields were ignored.`;
	}
	return outcome;
}

function withReason(decision: "allow" | "deny" | "ask", reason: string | undefined) {
	return reason ? { decision, reason: cutHookText(reason) } : { decision };
}
