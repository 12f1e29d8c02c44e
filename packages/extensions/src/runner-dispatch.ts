import { type AgentEvent, mergeToolResult } from "@gantry/agent";
import { errorText, withoutUndefined } from "@gantry/ai";
import type {
	ExtensionEventType,
	ToolCallEvent,
	ToolCallEventResult,
	ToolInfo,
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
	return `Extension ${source} failed: ${errorText(error)}`;
}

/** How many times each handler may run for one call before changing arguments count as a failure. */
const MAX_TOOL_CALL_ROUNDS = 3;

/**
 * Runs `tool_call` handlers in load order on the same event object, so in-place changes to `event.input`
 * are seen by later handlers. The first result with `block` wins at once; otherwise the last object
 * result is returned (without `terminate`, which counts only with `block`). A throwing handler blocks the
 * call with its message (fail closed).
 *
 * Every handler allows the arguments that will run, whatever the load order: when `event.input` changes,
 * the handlers that judged the earlier arguments run again on the new ones. A handler that changes the
 * input synchronously is a rewriter and is not asked again; a change that happens while a handler
 * awaits (a microtask or timer of any handler) leaves that handler's verdict open, so it runs again too.
 * Arguments that keep changing block the call.
 *
 * The handlers never hold the caller's `event.input`: they work on a copy, and the moment the last verdict
 * is taken (a handler's return, or the settling of the promise it returned), with no await in between,
 * the copy is copied again into the caller's object. A reference a handler kept, or a microtask, promise
 * callback or timer it left behind, changes nothing the caller runs.
 */
export async function dispatchToolCall(
	entries: readonly HandlerEntry<ToolCallHandler>[],
	event: ToolCallEvent,
	context: ExtensionContext,
	report: HandlerFailureReporter,
): Promise<ToolCallEventResult | undefined> {
	const count = entries.length;
	const watch = count > 1;
	const working: ToolCallEvent = { ...event, input: structuredClone(event.input) };
	if (event.tool !== undefined) {
		// Every handler sees the same frozen description; none may replace it or change it for the next.
		Object.defineProperty(working, "tool", { value: frozenToolInfo(event.tool), writable: false, configurable: false });
	}
	let last: ToolCallEventResult | undefined;
	const rewriters = new Set<number>();
	// Handlers whose verdict holds for the arguments as they are now.
	let current = new Set<number>();
	let runs = 0;
	for (let index = 0; current.size < count; index = (index + 1) % count) {
		if (current.has(index)) continue;
		if (++runs > count * MAX_TOOL_CALL_ROUNDS) {
			return {
				block: true,
				reason: `The arguments of ${event.toolName} kept changing while the tool_call handlers judged them; the call was blocked.`,
			};
		}
		const entry = entries[index];
		if (entry === undefined) throw new Error(`tool_call handler ${index} of ${count} is missing`);
		const { source, handler } = entry;
		const before = watch ? fingerprint(working.input) : "";
		let afterSync = before;
		let result: Awaited<ReturnType<ToolCallHandler>>;
		try {
			const pending = handler(working, context);
			if (watch) afterSync = fingerprint(working.input);
			// A handler that returned a plain value gave its verdict when it returned: no await, so nothing it
			// left queued runs before the arguments are taken.
			result = isThenable(pending) ? await pending : pending;
		} catch (error) {
			report(source, "tool_call", error);
			return { block: true, reason: handlerFailureMessage(source, error) };
		}
		if (typeof result === "object" && result !== null) {
			if (result.block) return { ...result, block: true };
			last = { ...result };
			delete last.terminate;
		}
		if (!watch) {
			current.add(index);
			continue;
		}
		if (afterSync !== before) rewriters.add(index);
		if (fingerprint(working.input) !== before) current = new Set(rewriters);
		else current.add(index);
	}
	let fixed: unknown;
	try {
		fixed = structuredClone(working.input);
	} catch (error) {
		return {
			block: true,
			reason: `The tool_call handlers left arguments for ${event.toolName} that are not plain data (${errorText(error)}); the call was blocked.`,
		};
	}
	replaceContents(event.input, fixed);
	return last;
}

/** A deep-frozen copy of a tool's description. */
function frozenToolInfo(tool: Readonly<ToolInfo>): Readonly<ToolInfo> {
	const copy = structuredClone(tool) as ToolInfo;
	if (copy.annotations !== undefined) Object.freeze(copy.annotations);
	if (copy.namespace !== undefined) Object.freeze(copy.namespace);
	return Object.freeze(copy);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Makes `target` hold exactly `source`'s own properties (`__proto__` stays an ordinary key). */
function replaceContents(target: Record<string, unknown>, source: unknown): void {
	for (const key of Object.keys(target)) delete target[key];
	if (typeof source !== "object" || source === null) return;
	for (const [key, value] of Object.entries(source)) {
		Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	}
}

function fingerprint(input: unknown): string {
	try {
		return JSON.stringify(input) ?? "";
	} catch {
		// Not serialisable (a cycle): treat every look as a change, so the call ends up blocked.
		return String(Math.random());
	}
}

type ResultFields = Required<Pick<ToolResultEvent, "content" | "isError">> &
	Partial<Pick<ToolResultEvent, "details">> &
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
	let current: ResultFields = withoutUndefined({
		content: event.content,
		details: event.details,
		isError: event.isError,
		structuredContent: event.structuredContent,
		usage: event.usage,
	});
	// Handlers see the running result; structured content a rewrite dropped must not come back from `event`.
	const { structuredContent: _original, ...base } = event;
	let overrides: ToolResultEventResult = {};
	let changed = false;
	for (const { source, handler } of entries) {
		let result: Awaited<ReturnType<ToolResultHandler>>;
		try {
			result = await handler({ ...base, ...current }, context);
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
