import {
	type AfterToolCallHook,
	type AfterToolCallResult,
	type AgentToolCall,
	type AgentToolResult,
	type BeforeToolCallHook,
	mergeToolResult,
} from "@gantry/agent";
import { type ImageContent, type Model, type TextContent, withoutUndefined } from "@gantry/ai";
import type { ExtensionRunner, ToolInfo } from "@gantry/extensions";
import { normalizeImages } from "./image-normalizer.js";

export interface HookBridgeOptions {
	runner: ExtensionRunner;
	getModel(): Model | undefined;
	/** Resize images of results to the model's limits after the result hooks. Default true. */
	autoResizeImages: boolean;
	/** The registered tool a call names, carried on the `tool_call` event as `tool` (what the policy judges). */
	getToolInfo?(name: string): ToolInfo | undefined;
	/** What a call waits for before its hooks and its run (the checkpoint before the prompt); never rejects. */
	untilToolsMayRun?(): Promise<unknown> | undefined;
	/** Told the arguments a model-issued call ran with (for the transcript). Must not throw. */
	onExecuted?(toolCall: AgentToolCall, args: unknown): void;
}

/**
 * Connects the agent's hooks to the extension events: `beforeToolCall` → `tool_call` (block, mutate
 * input, terminate; a throwing handler blocks), `afterToolCall` → the `tool_result` chain, then image
 * normalisation of the final content, so images added by extensions are normalised too.
 */
export function createToolHooks(
	options: HookBridgeOptions,
	parentToolCallId?: string,
): { beforeToolCall: BeforeToolCallHook; afterToolCall: AfterToolCallHook } {
	const { runner } = options;
	const parent = parentToolCallId === undefined ? {} : { parentToolCallId };

	const beforeToolCall: BeforeToolCallHook = async ({ toolCall, args }) => {
		const waiting = options.untilToolsMayRun?.();
		if (waiting !== undefined) await waiting;
		if (!runner.hasHandlers("tool_call")) return undefined;
		const input = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
		const result = await runner.emitToolCall({
			type: "tool_call",
			toolCallId: toolCall.id,
			...parent,
			toolName: toolCall.name,
			input,
			...withoutUndefined({ tool: options.getToolInfo?.(toolCall.name) }),
		});
		if (!result?.block) return undefined;
		return withoutUndefined({ block: true as const, reason: result.reason, terminate: result.terminate === true });
	};

	const afterToolCall: AfterToolCallHook = async ({ toolCall, args, result, isError }) => {
		if (parentToolCallId === undefined) options.onExecuted?.(toolCall, args);
		let current: AgentToolResult & { isError: boolean } = { ...result, isError };
		let changed = false;
		if (runner.hasHandlers("tool_result")) {
			const overrides = await runner.emitToolResult({
				type: "tool_result",
				toolCallId: toolCall.id,
				...parent,
				toolName: toolCall.name,
				input: (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>,
				content: result.content,
				details: result.details,
				isError,
				...withoutUndefined({ structuredContent: result.structuredContent, usage: result.usage }),
			});
			if (overrides) {
				current = mergeToolResult(current, overrides);
				changed = true;
			}
		}
		if (options.autoResizeImages) {
			const content = await normalizeImages(current.content, options.getModel());
			if (content !== current.content) {
				current = { ...current, content };
				changed = true;
			}
		}
		if (!changed) return undefined;
		const final: AfterToolCallResult = {
			content: current.content as (TextContent | ImageContent)[],
			details: current.details,
			isError: current.isError,
		};
		// Returning content without structuredContent drops it; keep what survived the hooks.
		if (current.structuredContent !== undefined) final.structuredContent = current.structuredContent;
		if (current.usage !== undefined) final.usage = current.usage;
		return final;
	};

	return { beforeToolCall, afterToolCall };
}
