import type { AgentMessage, AgentOptions } from "@gantry/agent";
import { withoutUndefined } from "@gantry/ai";
import { streamOptionsFor } from "./session-basics.js";
import type { AgentSessionOptions } from "./session-options.js";

/** The options of the session's `Agent`: its model and messages (resumed or initial), hooks and request options. */
export function agentOptionsFor(
	options: AgentSessionOptions,
	sessionId: string,
	resumed: AgentMessage[] | undefined,
	hooks: Pick<AgentOptions, "beforeToolCall" | "afterToolCall">,
	session: Required<Pick<AgentOptions, "resolveTool" | "onListenerError" | "transformContext">>,
): AgentOptions {
	return withoutUndefined({
		initialState: { model: options.model, messages: resumed ?? options.initialMessages ?? [] },
		toolExecution: options.toolExecution,
		resolveTool: session.resolveTool,
		beforeToolCall: hooks.beforeToolCall,
		afterToolCall: hooks.afterToolCall,
		streamFn: options.streamFn,
		apiKey: options.apiKey,
		maxTokens: options.maxTokens,
		temperature: options.temperature,
		streamOptions: streamOptionsFor(options, sessionId),
		onListenerError: session.onListenerError,
		transformContext: session.transformContext,
	});
}
