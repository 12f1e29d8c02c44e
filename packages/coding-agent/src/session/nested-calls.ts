import {
	type AfterToolCallHook,
	type AgentContext,
	type AgentEvent,
	type AgentTool,
	type AgentToolCall,
	type AgentToolCallOutcome,
	type AgentToolResult,
	type BeforeToolCallHook,
	runToolCall,
	ToolCallIdentity,
	type ToolResolver,
} from "@gantry/agent";
import { type AssistantMessage, withoutUndefined } from "@gantry/ai";
import type { ExecuteToolOptions } from "@gantry/extensions";
import { ExclusiveLock } from "./exclusive-lock.js";
import { NestedCallBook } from "./nested-records.js";

/** What the nested-call runner needs from its session. */
export interface NestedCallEnvironment {
	/** The tools `ctx.executeTool` may reach, read at call time. */
	getCallableTools(): readonly AgentTool[];
	/** Answers calls to tools withdrawn since (see `ToolRegistry.resolve`). */
	resolveTool: ToolResolver;
	/** The session's batch mode: `"sequential"` makes every nested call exclusive. */
	getToolExecution(): "parallel" | "sequential";
	/** The session's hooks for a call whose parent is `parentToolCallId`. */
	createHooks(parentToolCallId: string): { beforeToolCall?: BeforeToolCallHook; afterToolCall?: AfterToolCallHook };
	/** The conversation, handed to the hooks. */
	getContext(): AgentContext;
	/** The assistant message of the model-issued call at the root of a chain, handed to the hooks. */
	getAssistantMessage(): AssistantMessage;
	/** Delivers `tool_execution_*` events of nested calls (with `parentToolCallId`). */
	emit(event: AgentEvent): void | Promise<void>;
}

/**
 * Runs `ctx.executeTool` calls through the agent's pipeline (`runToolCall` with the session's hooks):
 * each call's identity is `caller.child()` (id `<caller>/<n>`), events carry `parentToolCallId`, records
 * and usage are collected per model-issued call (the identity's root, never parsed from an id), and
 * exclusive calls are queued session-wide. Never rejects for a tool failure.
 */
export class NestedToolCallRunner {
	readonly #environment: NestedCallEnvironment;
	readonly #books = new Map<string, NestedCallBook>();
	readonly #lock = new ExclusiveLock();

	constructor(environment: NestedCallEnvironment) {
		this.#environment = environment;
	}

	/** `caller` may be a plain id for a caller outside the pipeline (then a root identity). */
	async execute(
		caller: ToolCallIdentity | string,
		name: string,
		args: unknown,
		options: ExecuteToolOptions = {},
	): Promise<AgentToolCallOutcome> {
		const environment = this.#environment;
		const identity = (typeof caller === "string" ? ToolCallIdentity.root(caller) : caller).child();
		const toolCall: AgentToolCall = { type: "toolCall", id: identity.id, name, arguments: isRecord(args) ? args : {} };
		if (!isRecord(args)) {
			toolCall.argumentsError = `arguments must be a JSON object, got ${args === null ? "null" : Array.isArray(args) ? "an array" : typeof args}`;
		}
		const tools = environment.getCallableTools();
		const target = tools.find((tool) => tool.name === name);
		const exclusive = environment.getToolExecution() === "sequential" || target?.executionMode === "sequential";
		const run = () => this.#run(identity, toolCall, tools, options);
		return exclusive ? this.#lock.run(identity, run) : run();
	}

	/** Removes and returns the records of a model-issued call (the root of its nested calls). */
	takeRecords(rootToolCallId: string): NestedCallBook | undefined {
		const book = this.#books.get(rootToolCallId);
		this.#books.delete(rootToolCallId);
		return book;
	}

	async #run(
		identity: ToolCallIdentity,
		toolCall: AgentToolCall,
		tools: readonly AgentTool[],
		options: ExecuteToolOptions,
	): Promise<AgentToolCallOutcome> {
		const environment = this.#environment;
		const parentId = identity.parent?.id ?? identity.rootId;
		let book = this.#books.get(identity.rootId);
		if (!book) {
			book = new NestedCallBook();
			this.#books.set(identity.rootId, book);
		}
		const record = book.start(identity.id, toolCall.name, toolCall.arguments);
		const base = { toolCallId: identity.id, toolName: toolCall.name, parentToolCallId: parentId };
		await environment.emit({ type: "tool_execution_start", ...base, args: toolCall.arguments });
		const hooks = environment.createHooks(parentId);
		const outcome = await runToolCall(
			toolCall,
			withoutUndefined({
				identity,
				tools,
				resolveTool: environment.resolveTool,
				assistantMessage: environment.getAssistantMessage(),
				context: environment.getContext(),
				beforeToolCall: hooks.beforeToolCall,
				afterToolCall: hooks.afterToolCall,
				signal: options.signal,
				onUpdate: (partialResult: AgentToolResult) => {
					void environment.emit({ type: "tool_execution_update", ...base, args: toolCall.arguments, partialResult });
					options.onUpdate?.(partialResult);
				},
			}),
		);
		book.finish(
			record,
			withoutUndefined({
				isError: outcome.isError,
				durationMs: outcome.durationMs,
				blocked: outcome.blocked,
				usage: outcome.result.usage,
				errorText: outcome.isError ? resultText(outcome) : undefined,
			}),
		);
		await environment.emit({
			type: "tool_execution_end",
			...base,
			result: outcome.result,
			isError: outcome.isError,
			...withoutUndefined({ durationMs: outcome.durationMs, blocked: outcome.blocked }),
		});
		return outcome;
	}
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resultText(outcome: AgentToolCallOutcome): string {
	return outcome.result.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
}
