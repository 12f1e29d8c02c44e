import type { ToolCallEvent } from "@gantry/extensions";

/** A decision about one call made before the permission policy judges it (a PreToolUse hook's `permissionDecision`). */
export interface PermissionHint {
	decision: "allow" | "deny" | "ask";
	/** Why, for people and the model: `the PreToolUse hook ./check.sh: <its reason>`. */
	reason: string;
}

/**
 * The session-private channel through which PreToolUse hooks hand their `permissionDecision` to the
 * session's permission policy. The session makes one, gives it to its hooks (a `tool_call` handler that
 * runs before the policy's) and to its policy, and to no one else: an ordinary extension cannot reach it,
 * so it cannot forge an "allow". Keyed by the event object the handlers of one dispatch share, so a hint
 * never reaches another call, and it dies with its call.
 */
export class PermissionHints {
	readonly #hints = new WeakMap<ToolCallEvent, PermissionHint>();

	/** Records the decision for this call; a later `set` for the same call replaces it. */
	set(event: ToolCallEvent, hint: PermissionHint): void {
		this.#hints.set(event, hint);
	}

	/** The decision recorded for this call, if any. */
	get(event: ToolCallEvent): PermissionHint | undefined {
		return this.#hints.get(event);
	}

	/** Forgets the decision for this call (the hooks judged its arguments again and made none). */
	delete(event: ToolCallEvent): void {
		this.#hints.delete(event);
	}
}
