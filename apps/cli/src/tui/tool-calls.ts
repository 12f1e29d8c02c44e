import type { AgentToolResult } from "@gantry/agent";
import type { AgentSessionEvent } from "@gantry/coding-agent";

/** What the view knows about one tool call, model-issued or nested. */
export interface ToolCallState {
	id: string;
	name: string;
	args: unknown;
	startedAt: number;
	/** The last `onUpdate` result while running (bash output so far). */
	partial?: AgentToolResult;
	result?: AgentToolResult;
	isError: boolean;
	done: boolean;
	/**
	 * False when the call ended without running: blocked by a hook, an unknown tool, invalid arguments
	 * (the end event then carries no duration).
	 */
	ran: boolean;
	/** The permission policy or a `tool_call` hook blocked the call before it ran (the end event's `blocked`). */
	blocked: boolean;
	durationMs?: number;
	/** Nested calls this call made, in start order. */
	children: ToolCallState[];
}

type ToolExecutionEvent = Extract<AgentSessionEvent, { type: `tool_execution_${string}` }>;

/**
 * Follows `tool_execution_*` events: model-issued calls become roots, nested calls (with
 * `parentToolCallId`) hang under their caller. Finished roots are handed out in start order, so a
 * parallel batch is drawn in the order the model wrote it.
 */
export class ToolCallTracker {
	readonly #byId = new Map<string, ToolCallState>();
	#roots: ToolCallState[] = [];

	/** Applies one event; returns false for events that are not about tool execution. */
	apply(event: AgentSessionEvent, now = Date.now()): boolean {
		if (!isToolExecutionEvent(event)) return false;
		if (event.type === "tool_execution_start") {
			const call: ToolCallState = {
				id: event.toolCallId,
				name: event.toolName,
				args: event.args,
				startedAt: now,
				isError: false,
				done: false,
				ran: false,
				blocked: false,
				children: [],
			};
			this.#byId.set(call.id, call);
			const parent = event.parentToolCallId === undefined ? undefined : this.#byId.get(event.parentToolCallId);
			if (parent) parent.children.push(call);
			else this.#roots.push(call);
			return true;
		}
		const call = this.#byId.get(event.toolCallId);
		if (!call) return true;
		if (event.type === "tool_execution_update") {
			call.partial = event.partialResult;
		} else {
			call.result = event.result;
			call.isError = event.isError;
			call.done = true;
			call.blocked = event.blocked === true;
			call.ran = !call.blocked && event.durationMs !== undefined;
			call.durationMs = event.durationMs ?? now - call.startedAt;
		}
		return true;
	}

	/** Removes and returns the finished roots at the front of the list. */
	takeFinished(): ToolCallState[] {
		const firstRunning = this.#roots.findIndex((call) => !call.done);
		const count = firstRunning === -1 ? this.#roots.length : firstRunning;
		const finished = this.#roots.slice(0, count);
		this.#roots = this.#roots.slice(count);
		for (const call of finished) this.#forget(call);
		return finished;
	}

	/** Removes and returns every root, finished or not (a run that ended). */
	takeAll(): ToolCallState[] {
		const all = this.#roots;
		this.#roots = [];
		for (const call of all) this.#forget(call);
		return all;
	}

	/** The roots still shown live. */
	get pending(): readonly ToolCallState[] {
		return this.#roots;
	}

	#forget(call: ToolCallState): void {
		this.#byId.delete(call.id);
		for (const child of call.children) this.#forget(child);
	}
}

function isToolExecutionEvent(event: AgentSessionEvent): event is ToolExecutionEvent {
	return (
		event.type === "tool_execution_start" ||
		event.type === "tool_execution_update" ||
		event.type === "tool_execution_end"
	);
}
