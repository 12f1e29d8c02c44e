import { type AgentTool, type AgentToolCallOutcome, type AgentToolUpdateCallback, runToolCall } from "@gantry/agent";
import { type AssistantMessage, emptyUsage, withoutUndefined } from "@gantry/ai";
import {
	type ExtensionToolContext,
	type ToolDefinition,
	type ToolInfo,
	type ToolsChangedListener,
	wrapToolDefinition,
} from "@gantry/extensions";

/**
 * What `createMcpServer` needs from a session; `AgentSession` of `@gantry/coding-agent` has it. Calls run
 * as nested calls of the session (`ctx.executeTool`): validation, `tool_call` hooks (the permission
 * policy), `execute`, `tool_result` hooks.
 */
export interface McpToolSession {
	getAllTools(): ToolInfo[];
	/** The tools served: codemode and deferred tools plus active direct tools. */
	getCallableToolNames(): string[];
	getToolDefinition(name: string): ToolDefinition | undefined;
	readonly runner: {
		createToolContext(toolCallId: string, signal?: AbortSignal): ExtensionToolContext;
		onToolsChanged?(listener: ToolsChangedListener): () => void;
	};
}

/** One call's options. */
export interface CatalogCallOptions {
	signal?: AbortSignal;
	onUpdate?: AgentToolUpdateCallback;
}

/** The served tools and how to run them, whichever the source. */
export interface ToolCatalog {
	list(): ToolDefinition[];
	call(name: string, args: Record<string, unknown>, options: CatalogCallOptions): Promise<AgentToolCallOutcome>;
	/** Subscribes to changes of the list, when the source can say; returns the remover. */
	onChanged(listener: () => void): () => void;
}

let callCounter = 0;

/** A catalog over a session: its callable tools, run through its pipeline. */
export function sessionCatalog(session: McpToolSession): ToolCatalog {
	return {
		list: () =>
			session
				.getCallableToolNames()
				.map((name) => session.getToolDefinition(name))
				.filter((definition): definition is ToolDefinition => definition !== undefined),
		call(name, args, options) {
			// A root id of its own per call: the session files nested records and events under it.
			const callerId = `mcp-${++callCounter}`;
			const ctx = session.runner.createToolContext(callerId, options.signal);
			return ctx.executeTool(name, args, options);
		},
		onChanged: (listener) => session.runner.onToolsChanged?.(() => listener()) ?? (() => {}),
	};
}

/** A catalog over plain definitions: validation and `execute`, no hooks (there is no session). */
export function definitionsCatalog(definitions: readonly ToolDefinition[]): ToolCatalog {
	const tools: AgentTool[] = definitions.map((definition) => wrapToolDefinition(definition));
	return {
		list: () => [...definitions],
		call(name, args, options) {
			const toolCall = { type: "toolCall" as const, id: `mcp-${++callCounter}`, name, arguments: args };
			return runToolCall(toolCall, {
				tools,
				assistantMessage: SERVED_CALL_MESSAGE,
				context: { messages: [] },
				...withoutUndefined({ signal: options.signal, onUpdate: options.onUpdate }),
			});
		},
		onChanged: () => () => {},
	};
}

/** The assistant message hooks see for calls that came from an MCP client rather than a model. */
const SERVED_CALL_MESSAGE: AssistantMessage = {
	role: "assistant",
	content: [],
	stopReason: "toolUse",
	usage: emptyUsage(),
	api: "mcp",
	provider: "mcp",
	model: "mcp-client",
	timestamp: 0,
};
