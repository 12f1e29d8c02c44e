import { type AgentEvent, mergeToolResult } from "@gantry/agent";
import { errorMessage } from "./errors.js";
import type {
	ExtensionEventType,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
} from "./events.js";
import type { ExtensionContext, LifecycleHandler, ToolCallHandler, ToolResultHandler } from "./extension-api.js";

/** One registered handler and the extension it belongs to, in load order. */
export interface HandlerEntry<THandler> {
	source: string;
	handler: THandler;
}

/** Reports a throwing handler (to the runner's error listeners). Must not throw. */
export type HandlerFailureReporter = (source: string, event: ExtensionEventType, error: unknown) => void;

/** The reason given to the model when a `tool_call` handler throws. */
export function handlerFailureMessage(source: string, error: unknown): string {
	return `Extension ${source} failed: ${errorMessage(error)}`;
}

/**
 * Runs `tool_call` handlers in load order on the same event object, so in-place changes to `event.input`
 * are seen by later handlers. The first result with `block` wins at once; otherwise the last object
 * result is returned (without `terminate`, which counts only with `block`). A throwing handler blocks the
 * call with its message (fail closed).
 */
export async function dispatchToolCall(
	entries: readonly HandlerEntry<ToolCallHandler>[],
	event: ToolCallEvent,
	context: ExtensionContext,
	report: HandlerFailureReporter,
): Promise<ToolCallEventResult | undefined> {
	let last: ToolCallEventResult | undefined;
	for (const { source, handler } of entries) {
		let result: Awaited<ReturnType<ToolCallHandler>>;
		try {
			result = await handler(event, context);
		} catch (error) {
			report(source, "tool_call", error);
			return { block: true, reason: handlerFailureMessage(source, error) };
		}
		if (typeof result !== "object" || result === null) continue;
		if (result.block) return { ...result, block: true };
		last = { ...result };
		delete last.terminate;
	}
	return last;
}

type ResultFields = Required<Pick<ToolResultEvent, "content" | "details" | "isError">> &
	Pick<ToolResultEvent, "structuredContent" | "usage">;

/**
 * Runs `tool_result` handlers like middleware: each sees the result as rewritten by the ones before it.
 * Returns the merged overrides, or undefined when nothing changed. `content` without `structuredContent`
 * drops the structured content. A throwing handler is reported and skipped (fail open).
 */
export async function dispatchToolResult(
	entries: readonly HandlerEntry<ToolResultHandler>[],
	event: ToolResultEvent,
	context: ExtensionContext,
	report: HandlerFailureReporter,
): Promise<ToolResultEventResult | undefined> {
	let current: ResultFields = {
		content: event.content,
		details: event.details,
		isError: event.isError,
		structuredContent: event.structuredContent,
		usage: event.usage,
	};
	let overrides: ToolResultEventResult = {};
	let changed = false;
	for (const { source, handler } of entries) {
		let result: Awaited<ReturnType<ToolResultHandler>>;
		try {
			result = await handler({ ...event, ...current, structuredContent: current.structuredContent }, context);
		} catch (error) {
			report(source, "tool_result", error);
			continue;
		}
		if (typeof result !== "object" || result === null) continue;
		// The pipeline's merge rule, applied to the running result and to the overrides alike.
		const next = mergeToolResult(current, result);
		if (next === current) continue;
		current = next;
		overrides = mergeToolResult(overrides, result);
		changed = true;
	}
	return changed ? overrides : undefined;
}

/** Hands a lifecycle event to its observers in load order; a throwing observer is reported and skipped. */
export async function dispatchLifecycle(
	entries: readonly HandlerEntry<LifecycleHandler>[],
	event: AgentEvent,
	context: ExtensionContext,
	report: HandlerFailureReporter,
): Promise<void> {
	for (const { source, handler } of entries) {
		try {
			await handler(event as Parameters<LifecycleHandler>[0], context);
		} catch (error) {
			report(source, event.type as ExtensionEventType, error);
		}
	}
}
