import type { HookEventName } from "../settings/types.js";
import type { HookOutcome } from "./hook-output.js";

/** A text one hook handed on, and the hook. */
export interface HookText {
	hook: string;
	text: string;
}

/** The answers of every hook that ran for one event, combined. */
export interface CombinedHookOutcome {
	/** Every hook's blocking reason, in settings order. Any block wins. */
	blocks: HookText[];
	/** deny beats ask beats allow; the reasons of the hooks that gave the winning decision. */
	permission?: { decision: "allow" | "deny" | "ask"; reason: string };
	/** The last `updatedInput` in settings order, and the hook that gave it. */
	updatedInput?: { value: unknown; hook: string };
	/** Every hook's context, in settings order. */
	contexts: HookText[];
	/** Set when any hook said `continue: false`: the stop reasons given, joined. */
	stop?: string;
	/** `systemMessage`s and non-blocking errors, for the user. */
	notices: { message: string; level: "info" | "warning" }[];
}

export const NO_HOOK_OUTCOME: CombinedHookOutcome = Object.freeze({ blocks: [], contexts: [], notices: [] });

const DECISION_RANK = { allow: 1, ask: 2, deny: 3 } as const;

/**
 * Combines the outcomes of hooks that ran in parallel, in settings order (so the result does not depend
 * on which finished first): any block wins, deny > ask > allow, contexts are kept in order.
 */
export function combineHookOutcomes(outcomes: readonly HookOutcome[]): CombinedHookOutcome {
	const combined: CombinedHookOutcome = { blocks: [], contexts: [], notices: [] };
	const stops: string[] = [];
	const changers: string[] = [];
	let decisionReasons: string[] = [];
	for (const outcome of outcomes) {
		const { hook } = outcome;
		if (outcome.block !== undefined) combined.blocks.push({ hook, text: outcome.block });
		if (outcome.context !== undefined) combined.contexts.push({ hook, text: outcome.context });
		if (outcome.stop !== undefined) stops.push(outcome.stop);
		if (outcome.systemMessage !== undefined) combined.notices.push({ message: outcome.systemMessage, level: "info" });
		if (outcome.error !== undefined) combined.notices.push({ message: outcome.error, level: "warning" });
		if (outcome.updatedInput !== undefined) {
			combined.updatedInput = { value: outcome.updatedInput, hook };
			changers.push(hook);
		}
		const permission = outcome.permission;
		if (permission === undefined) continue;
		const reason = `the PreToolUse hook \`${hook}\`${permission.reason ? `: ${permission.reason}` : ""}`;
		const rank = DECISION_RANK[permission.decision];
		const currentRank = combined.permission === undefined ? 0 : DECISION_RANK[combined.permission.decision];
		if (rank > currentRank) decisionReasons = [reason];
		else if (rank === currentRank) decisionReasons.push(reason);
		else continue;
		combined.permission = { decision: permission.decision, reason: decisionReasons.join("; ") };
	}
	if (stops.length > 0) combined.stop = stops.filter((reason) => reason !== "").join("\n");
	if (changers.length > 1) {
		combined.notices.push({
			message: `Several PreToolUse hooks changed the call's input (${changers.map((hook) => `\`${hook}\``).join(", ")}); the change of the last one in settings order was used.`,
			level: "warning",
		});
	}
	return combined;
}

/** Texts of several hooks as one: `<lead> the <event> hook \`cmd\`: text`, one paragraph per hook. */
export function describeHookTexts(lead: string, event: HookEventName, texts: readonly HookText[]): string {
	return texts.map((entry) => `${lead} the ${event} hook \`${entry.hook}\`:\n${entry.text}`).join("\n\n");
}
