import { type AgentToolCallOutcome, ToolCallIdentity } from "@gantry/agent";
import type { Model } from "@gantry/ai";
import { errorText } from "@gantry/ai";
import type { ExtensionToolHost } from "./runner-types.js";
import type { ExtensionToolContext } from "./tool-definition.js";

/** The message of the outcome `executeTool` resolves to while no session has bound a tool host. */
export const NESTED_CALLS_UNAVAILABLE =
	"nested tool calls are not available until a session binds the extension runner";

/** What a tool context reads from its runner, at call time. */
export interface ToolContextSource {
	cwd: string;
	hasUI: boolean;
	getModel(): Model | undefined;
	getToolHost(): ExtensionToolHost | undefined;
}

function failedOutcome(id: string, name: string, args: unknown, text: string): AgentToolCallOutcome {
	const argumentsRecord =
		typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
	return {
		toolCall: { type: "toolCall", id, name, arguments: argumentsRecord },
		result: { content: [{ type: "text", text }], isError: true },
		isError: true,
	};
}

/**
 * The `ExtensionToolContext` of one call. The host is looked up when a nested call is made, so a context
 * created before the session bound the runner still reaches the session's tools afterwards. Nested calls
 * are numbered by `call` (a root identity for `toolCallId` when the caller gave none), also the ones
 * answered here without a host.
 */
export function createExtensionToolContext(
	source: ToolContextSource,
	toolCallId: string,
	signal?: AbortSignal,
	call: ToolCallIdentity = ToolCallIdentity.root(toolCallId),
): ExtensionToolContext {
	const context: ExtensionToolContext = {
		cwd: source.cwd,
		hasUI: source.hasUI,
		get tools() {
			return source.getToolHost()?.getCallableTools() ?? [];
		},
		async executeTool(name, args, options) {
			const host = source.getToolHost();
			if (host === undefined) {
				return failedOutcome(call.child().id, name, args, `Tool ${name} was not run: ${NESTED_CALLS_UNAVAILABLE}`);
			}
			try {
				return await host.executeTool(call, name, args, {
					signal: options?.signal ?? signal,
					onUpdate: options?.onUpdate,
				});
			} catch (error) {
				return failedOutcome(call.child().id, name, args, `Tool ${name} failed: ${errorText(error)}`);
			}
		},
	};
	const model = source.getModel();
	if (model !== undefined) context.model = model;
	if (signal !== undefined) context.signal = signal;
	return context;
}
