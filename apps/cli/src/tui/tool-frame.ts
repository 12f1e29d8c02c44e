import type { AgentToolResult } from "@gantry/agent";
import type { Theme, ToolDefinition } from "@gantry/extensions";
import { wordWrap } from "./ansi.js";
import { formatDuration, renderFallbackCall, renderFallbackResult } from "./fallback-render.js";
import type { ToolCallState } from "./tool-calls.js";

/** What drawing a tool call needs besides the call. */
export interface ToolFrameContext {
	theme: Theme;
	/** The definition behind a tool name (its renderers and `renderShell`), if registered. */
	getDefinition(name: string): ToolDefinition | undefined;
	/** The current spinner frame, for running calls. */
	spinner: string;
	/** The current time in milliseconds, for the elapsed time of running calls. */
	now: number;
	/** A question waits for the person: running calls say so instead of spinning. */
	waiting?: boolean;
	/** Passed to `renderResult`. Default false. */
	expanded?: boolean;
	/**
	 * Columns a frame line may take, when known: an error result's lines are word-wrapped to fit (its
	 * whole message matters); everything else is left to the screen, which cuts long lines.
	 */
	width?: number;
}

/** Columns the frame (or a self-drawn tool's nesting) puts before each line. */
const FRAME_INDENT = 2;

/** A renderer's text as lines; undefined when it is missing, throws or returns nothing usable. */
function tryRender(render: (() => string | undefined) | undefined): string[] | undefined {
	if (render === undefined) return undefined;
	try {
		const text = render();
		return typeof text === "string" ? splitLines(text) : undefined;
	} catch {
		// A renderer bug must not break the session's output: the fallback renderer takes over.
		return undefined;
	}
}

function splitLines(text: string): string[] {
	return text === "" ? [] : text.split("\n");
}

function callLines(call: ToolCallState, definition: ToolDefinition | undefined, theme: Theme): string[] {
	const renderCall = definition?.renderCall;
	const custom = tryRender(renderCall ? () => renderCall.call(definition, call.args as never, theme) : undefined);
	return custom && custom.length > 0 ? custom : [renderFallbackCall(call.name, call.args, theme)];
}

function resultLines(call: ToolCallState, definition: ToolDefinition | undefined, context: ToolFrameContext): string[] {
	const shown: AgentToolResult | undefined = call.done ? call.result : call.partial;
	if (shown === undefined) return [];
	const result = call.done ? { ...shown, isError: call.isError } : shown;
	const isPartial = !call.done;
	// A call that never ran (invalid arguments, blocked, unknown tool) carries the pipeline's message, not
	// the tool's output: the tool's renderer would not know it (it may show only a first line), so the
	// message is drawn as text, with its reason.
	const renderResult = call.done && call.isError && !call.ran ? undefined : definition?.renderResult;
	const options = { expanded: context.expanded ?? false, isPartial };
	const custom = tryRender(
		renderResult ? () => renderResult.call(definition, result as never, options, context.theme) : undefined,
	);
	const lines = custom ?? splitLines(renderFallbackResult(result, isPartial, context.theme));
	const room = context.width === undefined ? undefined : context.width - FRAME_INDENT;
	return call.done && call.isError && room !== undefined ? lines.flatMap((line) => wordWrap(line, room)) : lines;
}

/** The closing line of a frame: a spinner and the time so far, or how the call ended and how long it took. */
function statusText(call: ToolCallState, context: ToolFrameContext): string {
	const { theme } = context;
	if (!call.done && context.waiting) {
		return `${theme.warning("?")} ${theme.muted(`waiting for your answer · ${formatDuration(context.now - call.startedAt)}`)}`;
	}
	if (!call.done)
		return `${theme.accent(context.spinner)} ${theme.muted(formatDuration(context.now - call.startedAt))}`;
	const duration = theme.muted(formatDuration(call.durationMs ?? 0));
	if (!call.isError) return `${theme.success("✓")} ${duration}`;
	if (call.blocked) return theme.error("✗ blocked");
	return call.ran ? `${theme.error("✗ failed")} ${duration}` : theme.error("✗ not run");
}

/**
 * Draws one tool call and its nested calls as lines. With `renderShell: "default"` the tool's
 * `renderCall` / `renderResult` go inside the standard frame (its colour shows the state, its last line
 * the spinner or the outcome and duration); with `"self"` the tool's own lines stand alone, plus a
 * spinner line while it runs. Tools without renderers get the fallback renderer.
 */
export function renderToolFrame(call: ToolCallState, context: ToolFrameContext): string[] {
	const { theme } = context;
	const definition = context.getDefinition(call.name);
	const head = callLines(call, definition, theme);
	const inner = { ...context, ...(context.width === undefined ? {} : { width: context.width - FRAME_INDENT }) };
	const children = call.children.flatMap((child) => renderToolFrame(child, inner));
	const body = resultLines(call, definition, context);
	if (definition?.renderShell === "self") {
		const lines = [...head, ...children.map((line) => `  ${line}`), ...body];
		if (!call.done) lines.push(statusText(call, context));
		return lines;
	}
	const border = !call.done ? theme.accent : call.isError ? theme.error : theme.muted;
	return [
		...head.map((line, index) => `${border(index === 0 ? "╭─" : "│ ")} ${line}`),
		...[...children, ...body].map((line) => `${border("│")} ${line}`),
		`${border("╰─")} ${statusText(call, context)}`,
	];
}
