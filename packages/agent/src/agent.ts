import { type AssistantMessage, type Message, type Model, type stream, withoutUndefined } from "@gantry/ai";
import { assertContinuable, runAgentLoop } from "./agent-loop.js";
import { GantryAgentError } from "./errors.js";
import type {
	AfterToolCallHook,
	AgentContext,
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentState,
	AgentStreamOptions,
	AgentTool,
	BeforeToolCallHook,
	ToolResolver,
} from "./types.js";

/** Receives every event of the agent's runs, after the agent updated its state for it. */
export type AgentListener = (event: AgentEvent) => void | Promise<void>;

export interface AgentOptions {
	/** Starting state; `model` is needed before the first `prompt`. Default: empty prompt, tools and messages. */
	initialState?: Partial<AgentState>;
	/** How a batch of tool calls runs. Default `"parallel"` (see `AgentLoopConfig.toolExecution`). */
	toolExecution?: "parallel" | "sequential";
	/** See `AgentLoopConfig.resolveTool`. Default: the tools the request declared. */
	resolveTool?: ToolResolver;
	/** See `AgentLoopConfig.beforeToolCall`. Default: none (every valid call runs). */
	beforeToolCall?: BeforeToolCallHook;
	/** See `AgentLoopConfig.afterToolCall`. Default: none (results are kept as the tool returned them). */
	afterToolCall?: AfterToolCallHook;
	/** See `AgentLoopConfig.streamFn`. Default: `stream` from `@gantry/ai`. */
	streamFn?: typeof stream;
	/** See `AgentLoopConfig.convertToLlm`. Default: keep user, assistant and tool result messages. */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** See `AgentLoopConfig.transformContext`. Default: none. */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** See `AgentLoopConfig.apiKey`. */
	apiKey?: string;
	/** See `AgentLoopConfig.getApiKey`. */
	getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;
	/** See `AgentLoopConfig.maxTokens`. */
	maxTokens?: number;
	/** See `AgentLoopConfig.temperature`. */
	temperature?: number;
	/** See `AgentLoopConfig.streamOptions`. */
	streamOptions?: AgentStreamOptions;
	/**
	 * Called when a listener throws or rejects; the run goes on with the next listener.
	 * Default: `console.error`. Must not throw.
	 */
	onListenerError?: (error: unknown, event: AgentEvent) => void;
}

/**
 * A stateful wrapper around the agent loop: keeps the transcript, runs one prompt at a time, queues
 * steering and follow-up messages, and tells listeners about every event.
 *
 * @example
 * const agent = new Agent({ initialState: { model, tools: [readTool] } });
 * agent.subscribe((event) => { if (event.type === "message_end") console.log(event.message); });
 * await agent.prompt("What is in README.md?");
 */
export class Agent {
	/** The live state. Assigning `tools`, `systemPrompt` or `model` takes effect at the next model request. */
	readonly state: AgentState;
	/** Options read at every run (and the hooks at every batch); assign to change them. */
	readonly options: Omit<AgentOptions, "initialState">;
	readonly #listeners: AgentListener[] = [];
	readonly #steering: AgentMessage[] = [];
	readonly #followUps: AgentMessage[] = [];
	#abortController: AbortController | undefined;
	#running: Promise<void> | undefined;
	#delivery: Promise<void> = Promise.resolve();

	constructor(options: AgentOptions = {}) {
		const { initialState, ...rest } = options;
		this.options = rest;
		this.state = {
			systemPrompt: initialState?.systemPrompt ?? "",
			model: initialState?.model as Model,
			tools: initialState?.tools ?? [],
			messages: initialState?.messages ?? [],
			isStreaming: false,
			pendingToolCalls: new Set(),
		};
	}

	/** Adds a listener (awaited, in subscription order, one event at a time); returns its remover. */
	subscribe(listener: AgentListener): () => void {
		this.#listeners.push(listener);
		return () => {
			const index = this.#listeners.indexOf(listener);
			if (index !== -1) this.#listeners.splice(index, 1);
		};
	}

	/**
	 * Runs the agent on new input (a text becomes a user message) until it stops. Resolves when the run
	 * and every listener are done. Model and tool failures do not reject (see `state.error`); rejects with
	 * `GantryAgentError` when a run is already active (`agent_busy`; use `steer`/`followUp`) or no model is set.
	 */
	async prompt(input: string | AgentMessage | AgentMessage[]): Promise<void> {
		const prompts =
			typeof input === "string"
				? [{ role: "user" as const, content: input, timestamp: Date.now() }]
				: Array.isArray(input)
					? input
					: [input];
		return this.#run(prompts);
	}

	/**
	 * Continues from the current transcript (e.g. after an error, or after adding tool results). When it
	 * ends with an assistant message, queued steering or follow-up messages become the prompt; without
	 * any, rejects with `GantryAgentError` (`cannot_continue`), as for an empty transcript.
	 */
	async continue(): Promise<void> {
		const last = this.state.messages.at(-1) as { role?: unknown } | undefined;
		if (last?.role === "assistant" && !this.state.isStreaming) {
			const queued = this.#steering.length > 0 ? this.#steering : this.#followUps;
			if (queued.length > 0) return this.#run(queued.splice(0));
		}
		return this.#run(undefined);
	}

	/** The signal of the active run (aborted by `abort()`), or undefined when idle. */
	get signal(): AbortSignal | undefined {
		return this.#abortController?.signal;
	}

	/** Aborts the active run: the model request and running tools see the signal. No-op when idle. */
	abort(): void {
		this.#abortController?.abort();
	}

	/** Resolves when no run is active (immediately when idle). */
	waitForIdle(): Promise<void> {
		return this.#running ?? Promise.resolve();
	}

	/**
	 * Queues a message injected after the current tool calls complete, before the next model request.
	 * Queued while idle, it joins the next run right after that run's prompt.
	 */
	steer(message: AgentMessage): void {
		this.#steering.push(message);
	}

	/** Queues a message that starts another turn when the agent would otherwise stop. */
	followUp(message: AgentMessage): void {
		this.#followUps.push(message);
	}

	/** Drops queued steering and follow-up messages. */
	clearQueues(): void {
		this.#steering.length = 0;
		this.#followUps.length = 0;
	}

	#run(prompts: AgentMessage[] | undefined): Promise<void> {
		if (this.state.isStreaming) {
			return Promise.reject(
				new GantryAgentError("agent_busy", "The agent is already running: use steer() or followUp()"),
			);
		}
		if (this.state.model === undefined) {
			return Promise.reject(new GantryAgentError("missing_model", "Set state.model before running the agent"));
		}
		const context = this.#liveContext();
		if (prompts === undefined) {
			try {
				assertContinuable(context);
			} catch (error) {
				return Promise.reject(error);
			}
		}
		const controller = new AbortController();
		this.#abortController = controller;
		this.state.isStreaming = true;
		delete this.state.error;
		const run = async () => {
			try {
				await runAgentLoop(prompts, context, this.#liveConfig(), (event) => this.#deliver(event), controller.signal);
				await this.#delivery;
			} finally {
				this.state.isStreaming = false;
				delete this.state.streamMessage;
				if (this.state.pendingToolCalls.size > 0) this.state.pendingToolCalls = new Set();
				this.#abortController = undefined;
				this.#running = undefined;
			}
		};
		this.#running = run();
		return this.#running;
	}

	#liveContext(): AgentContext {
		const state = this.state;
		return {
			get systemPrompt() {
				return state.systemPrompt;
			},
			get tools(): AgentTool[] {
				return state.tools;
			},
			messages: state.messages.slice(),
		};
	}

	#liveConfig(): AgentLoopConfig {
		const state = this.state;
		const options = this.options;
		return {
			get model() {
				return state.model;
			},
			...withoutUndefined({
				streamFn: options.streamFn,
				toolExecution: options.toolExecution,
				resolveTool: options.resolveTool,
				beforeToolCall: options.beforeToolCall,
				afterToolCall: options.afterToolCall,
				convertToLlm: options.convertToLlm,
				transformContext: options.transformContext,
				apiKey: options.apiKey,
				getApiKey: options.getApiKey,
				maxTokens: options.maxTokens,
				temperature: options.temperature,
				streamOptions: options.streamOptions,
			}),
			getSteeringMessages: async () => this.#steering.splice(0),
			getFollowUpMessages: async () => this.#followUps.splice(0),
		};
	}

	/** Events are handled strictly one after another, even those the loop does not await (updates). */
	#deliver(event: AgentEvent): Promise<void> {
		this.#delivery = this.#delivery.then(() => this.#handle(event));
		return this.#delivery;
	}

	async #handle(event: AgentEvent): Promise<void> {
		this.#updateState(event);
		for (const listener of this.#listeners.slice()) {
			try {
				const pending = listener(event);
				if (pending !== undefined) await pending;
			} catch (error) {
				try {
					(this.options.onListenerError ?? reportListenerError)(error, event);
				} catch {
					// The error reporter is the last resort; nothing is left to tell.
				}
			}
		}
	}

	#updateState(event: AgentEvent): void {
		const state = this.state;
		switch (event.type) {
			case "message_start":
			case "message_update":
				if (isAssistant(event.message)) state.streamMessage = event.message;
				break;
			case "message_end":
				if (isAssistant(event.message)) {
					delete state.streamMessage;
					const { stopReason, errorMessage } = event.message;
					if (stopReason === "error" || stopReason === "aborted") state.error = errorMessage ?? stopReason;
				}
				state.messages.push(event.message);
				break;
			case "tool_execution_start":
				state.pendingToolCalls = new Set(state.pendingToolCalls).add(event.toolCallId);
				break;
			case "tool_execution_end": {
				const pending = new Set(state.pendingToolCalls);
				pending.delete(event.toolCallId);
				state.pendingToolCalls = pending;
				break;
			}
		}
	}
}

function isAssistant(message: AgentMessage): message is AssistantMessage {
	return (message as { role?: unknown }).role === "assistant";
}

function reportListenerError(error: unknown, event: AgentEvent): void {
	console.error(`@gantry/agent: a listener failed on "${event.type}":`, error);
}
