import type { AgentMessage } from "@gantry/agent";
import { estimateMessageTokens } from "./estimate-tokens.js";

const roleOf = (message: AgentMessage | undefined) => (message as { role?: string } | undefined)?.role;

/** A message the kept part may start at: anything but a tool result (its call must come with it). */
function canStartAt(messages: readonly AgentMessage[], index: number): boolean {
	return roleOf(messages[index]) !== "toolResult";
}

/**
 * Where the recent part of `messages[from…]` starts that is kept as it is: about `keepTokens` of the newest
 * messages, starting at a user message (a whole turn) where one is in reach, else at an assistant message,
 * so a tool call is never parted from its result. Undefined when everything from `from` fits (nothing is
 * old enough to summarise) or no message after `from` can start the kept part.
 *
 * With `atLeastOneTurn` (a manual `/compact`), a conversation that fits is still cut: before its last
 * turn, or within it when it is the only one.
 */
export function findCutIndex(
	messages: readonly AgentMessage[],
	keepTokens: number,
	from = 0,
	atLeastOneTurn = false,
): number | undefined {
	let kept = 0;
	let start = messages.length;
	while (start > from && kept + estimateMessageTokens(messages[start - 1] as AgentMessage) <= keepTokens) {
		start--;
		kept += estimateMessageTokens(messages[start] as AgentMessage);
	}
	if (start > from) {
		// The newest messages outgrew the budget: start at the first turn boundary inside it, else at the
		// first message that may start the kept part, else (one huge tool result) at its call.
		for (let index = start; index < messages.length; index++) if (roleOf(messages[index]) === "user") return index;
		for (let index = start; index < messages.length; index++) if (canStartAt(messages, index)) return index;
		for (let index = start - 1; index > from; index--) if (canStartAt(messages, index)) return index;
		return undefined;
	}
	if (!atLeastOneTurn) return undefined;
	for (let index = messages.length - 1; index > from; index--) if (roleOf(messages[index]) === "user") return index;
	for (let index = messages.length - 1; index > from; index--) if (canStartAt(messages, index)) return index;
	return undefined;
}
