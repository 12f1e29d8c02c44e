import { Agent, type AgentEvent, type AgentMessage, type AgentTool, type AgentToolCall } from "@gantry/agent";
import { addUsage, emptyUsage, type Model, type Tool, withoutUndefined } from "@gantry/ai";
import { type ExtensionRunner, type ToolDefinition, type ToolInfo, wrapToolDefinition } from "@gantry/extensions";
import type { Workspace } from "@gantry/tools";
import { createSessionCheckpoints } from "../checkpoints/session-wiring.js";
import type { CheckpointInfo, RewindOptions, RewindResult } from "../checkpoints/types.js";
import * as compaction from "../compaction/session-compactor.js";
import { runPromptWithHooks, runSessionEnd } from "../hooks/prompt-hooks.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import { TOOL_SEARCH_TOOL_NAME } from "../tool-search/index.js";
import { agentOptionsFor } from "./agent-options.js";
import type { ContextFile } from "./context-files.js";
import { createToolHooks } from "./hook-bridge.js";
import { applyToolLoadout } from "./loadout.js";
import { createToolFilter } from "./name-patterns.js";
import { NestedToolCallRunner } from "./nested-calls.js";
import {
	currentAssistantMessage,
	declaredToolsOf,
	isToolResult,
	releaseWorkspace,
	type SessionEnvironment,
	sessionIdFor,
} from "./session-basics.js";
import { SessionListeners } from "./session-listeners.js";
import type { AgentSessionOptions } from "./session-options.js";
import type { SessionPermissions } from "./session-permissions.js";
import { createBuiltinToolSources } from "./session-tools.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { ToolRegistry, type ToolSource } from "./tool-registry.js";
import type { LoadedTranscript, Transcript } from "./transcript.js";

/**
 * Session events are the agent's events, plus nested calls' `tool_execution_*` (with `parentToolCallId`),
 * plus compaction's (`compaction_start`, `compaction_end`, `tool_results_trim`; not sent to extensions).
 */
export type AgentSessionEvent = AgentEvent | compaction.CompactionEvent;
export type AgentSessionListener = (event: AgentSessionEvent) => void | Promise<void>;

/** Reports problems the session recovered from (a throwing `prepareLoadout`, a failing listener). */
export type SessionDiagnosticListener = (message: string, error?: unknown) => void;

/**
 * A coding-agent session: the tool registry and loadout, permissions and result hooks (through the
 * extension runner), nested calls, the system prompt and the transcript, around one `Agent`.
 * Create it with `createAgentSession`.
 */
export class AgentSession {
	readonly agent: Agent;
	readonly runner: ExtensionRunner;
	/** The session's temp folder (spill files, codemode output), inside the workspace's; removed by `dispose()`. */
	readonly tempDir: string;
	/** The host the builtin tools act on (`options.workspace`, else the local folder `options.cwd`). */
	readonly workspace: Workspace;
	/** The prompt-cache key every model request carries (`options.sessionId`, else derived; see there). */
	readonly sessionId: string;
	/** The instruction files (AGENTS.md, CLAUDE.md) in the system prompt, in order (`options.contextFiles`). */
	readonly contextFiles: readonly ContextFile[];
	/** The permission mode (`mode`, `setMode`) and the hints hooks leave for the session's policy. */
	readonly permissions: SessionPermissions;
	readonly #options: AgentSessionOptions;
	readonly #registry = new ToolRegistry({ searchTool: TOOL_SEARCH_TOOL_NAME });
	readonly #nested: NestedToolCallRunner;
	/** The session's model now (the one closure the constructor hands out, kept for the builtins made later). */
	readonly #getModel: () => Model;
	readonly #compactor: compaction.ContextCompactor;
	readonly #transcript: Transcript | undefined;
	readonly #listeners = new SessionListeners<AgentSessionEvent>();
	readonly #namedInAllowlist: ReadonlySet<string>;
	readonly #isAllowed: (name: string) => boolean;
	readonly #hooks: SessionHooks | undefined;
	readonly #checkpoints: ReturnType<typeof createSessionCheckpoints>;
	#builtinSources: ToolSource[] | undefined;
	#persistedActive: string[];
	#nestedDelivery: Promise<void> = Promise.resolve();
	/** Model-issued calls that ran, by id, until their result message is written. */
	readonly #executions = new Map<string, { executedArguments: unknown; modelArguments: unknown }>();
	#ranOnce = false;
	#disposed = false;

	/** @internal Use `createAgentSession`. */
	constructor(
		options: AgentSessionOptions,
		runner: ExtensionRunner,
		transcript: { transcript: Transcript; loaded?: LoadedTranscript } | undefined,
		environment: SessionEnvironment,
		permissions: SessionPermissions,
	) {
		this.#options = options;
		this.sessionId = options.sessionId ?? sessionIdFor(options.sessionFile);
		this.runner = runner;
		this.workspace = environment.workspace;
		this.tempDir = environment.tempDir;
		this.contextFiles = environment.contextFiles ?? [];
		this.permissions = permissions;
		this.#transcript = transcript?.transcript;
		this.#namedInAllowlist = new Set((options.tools ?? []).filter((name) => !name.includes("*")));
		this.#isAllowed = createToolFilter(options.tools, options.excludeTools);
		this.#hooks = environment.hooks;
		// Through the UI when there is one, else to the diagnostic listeners.
		const notify = (message: string, level: "info" | "warning" | "error" = "warning") =>
			runner.hasUI ? runner.ui.notify(message, level) : this.#listeners.report(message);
		this.#hooks?.attach({
			...withoutUndefined({ tempDir: this.tempDir, sessionId: this.sessionId, transcriptPath: this.#transcript?.path }),
			getPermissionMode: () => this.permissions.mode,
			getTool: (name) => this.#registry.get(name)?.tool,
			notify,
		});
		this.#checkpoints = createSessionCheckpoints(options, environment, this.sessionId, transcript, notify);
		// Each of these is defined once and handed to every part that needs it.
		const getModel = () => this.agent.state.model;
		const resolveTool = (name: string, declared: AgentTool | undefined) => this.#registry.resolve(name, declared);
		const getCallableTools = () => this.#callableTools();
		const getToolInfo = (name: string) => {
			const entry = this.#registry.get(name);
			return entry === undefined ? undefined : this.#registry.info(entry);
		};
		this.#getModel = getModel;
		const hookOptions = {
			runner,
			getModel,
			getToolInfo,
			autoResizeImages: options.images?.autoResize ?? true,
			untilToolsMayRun: () => this.#checkpoints.beforeToolsRun(),
			onExecuted: (toolCall: AgentToolCall, args: unknown) => {
				if (this.#transcript !== undefined) {
					this.#executions.set(toolCall.id, { executedArguments: args, modelArguments: toolCall.arguments });
				}
			},
		};
		const hooks = createToolHooks(hookOptions);
		this.agent = new Agent(
			agentOptionsFor(options, this.sessionId, transcript?.loaded?.messages, hooks, {
				resolveTool,
				onListenerError: (error) => this.#listeners.report("a session listener failed", error),
				transformContext: (messages, signal) => this.#compactor.transform(messages, signal),
			}),
		);
		const state = () => this.agent.state;
		this.#compactor = compaction.createSessionCompactor(options, this.sessionId, transcript, state, (event) =>
			this.#broadcast(event),
		);
		this.#nested = new NestedToolCallRunner({
			getCallableTools,
			resolveTool,
			getToolExecution: () => options.toolExecution ?? "parallel",
			createHooks: (parentToolCallId) => createToolHooks(hookOptions, parentToolCallId),
			getContext: () => ({
				systemPrompt: this.agent.state.systemPrompt,
				messages: this.agent.state.messages,
				tools: this.agent.state.tools,
			}),
			getAssistantMessage: () => currentAssistantMessage(this.agent.state),
			emit: (event) => this.#deliverNested(event),
		});
		this.agent.subscribe((event) => this.#onAgentEvent(event));
		runner.setToolHost({
			getCallableTools,
			executeTool: (caller, name, args, executeOptions) => this.#nested.execute(caller, name, args, executeOptions),
		});
		runner.setActionHost({
			getActiveTools: () => this.getActiveToolNames(),
			getAllTools: () => this.getAllTools(),
			getToolInfo,
			setActiveTools: (names) => this.setActiveToolsByName(names),
			refreshTools: () => this.refreshTools(),
			getModel,
			getSignal: () => this.agent.signal,
			abort: () => this.abort(),
		});
		runner.onToolsChanged((change) => {
			if (change.reason !== undefined) this.#registry.noteRemoval(change.removedToolNames, change.reason);
			this.refreshTools();
		});
		runner.onError((diagnostic) => this.#listeners.report(diagnostic.message, diagnostic.error));

		const restoredActive = transcript?.loaded?.activeToolNames;
		this.#persistedActive = restoredActive ? [...restoredActive] : [];
		this.#rebuild();
		if (restoredActive) this.#registry.restoreActive(restoredActive);
		this.#applyLoadout();
	}

	get messages(): AgentMessage[] {
		return this.agent.state.messages;
	}

	get systemPrompt(): string {
		return this.agent.state.systemPrompt;
	}

	get model(): Model {
		return this.agent.state.model;
	}

	/** Sends the next requests to `model`; a switch is recorded in the transcript (`LoadedTranscript.model`). */
	setModel(model: Model): void {
		const { provider, id } = this.agent.state.model;
		this.agent.state.model = model;
		if (provider !== model.provider || id !== model.id) this.#transcript?.appendModel(model);
	}

	/** The transcript file, when the session has one. */
	get sessionFile(): string | undefined {
		return this.#transcript?.path;
	}

	/** Runs the agent on a prompt until it stops (hooks' UserPromptSubmit, Stop) between two checkpoints. Never rejects. */
	async prompt(text: string): Promise<void> {
		const host = { run: (input: string | AgentMessage) => this.agent.prompt(input), messages: () => this.messages };
		const hooks = this.#hooks;
		await this.#checkpoints.around(text, host.messages, () =>
			hooks === undefined ? host.run(text) : runPromptWithHooks(hooks, text, host),
		);
	}

	/** The prompts `rewind` can go back to, oldest first, each with the files the session changed from it on. */
	listCheckpoints(): CheckpointInfo[] {
		return this.#checkpoints.list();
	}

	/** Back to before prompt `id`: its files (`code`; never the user's: `conflicts`) and/or its turns (`conversation`). */
	rewind(id: string, what: RewindOptions): Promise<RewindResult> {
		return this.#checkpoints.rewind(id, what, (index) => this.agent.state.messages.splice(index));
	}

	/** Summarises all but the recent turns now (README: "Compaction"); rejects `busy` in a run, `compaction_failed`. */
	compact(instructions?: string): Promise<compaction.CompactionResult> {
		return this.#compactor.compactSession(this.agent.state, instructions, this.#disposed);
	}

	/** Aborts the current run (or `compact()`) and kills the hooks running for it. */
	abort(): void {
		this.#compactor.abort();
		this.#hooks?.abort();
		this.agent.abort();
	}

	/** Receives every agent event and nested calls' execution events; returns the remover. */
	subscribe(listener: AgentSessionListener): () => void {
		return this.#listeners.subscribe(listener);
	}

	/** Receives problems the session recovered from; returns the remover. */
	onDiagnostic(listener: SessionDiagnosticListener): () => void {
		return this.#listeners.onDiagnostic(listener);
	}

	/** Declared tools, in their stable order (hidden declarations included: they stay active). */
	getActiveToolNames(): string[] {
		return this.#registry.activeNames();
	}

	/** Codemode and deferred tools plus active direct tools; never model-only or hidden ones. */
	getCallableToolNames(): string[] {
		return this.#registry.callableEntries().map((entry) => entry.definition.name);
	}

	getAllTools(): ToolInfo[] {
		return this.#registry.registered().map((entry) => this.#registry.info(entry));
	}

	/** Replaces the active set (unknown and hidden names ignored); applies from the next model request. */
	setActiveToolsByName(names: string[]): void {
		this.#registry.setActive(names);
		this.#applyLoadout();
	}

	/** Rebuilds the registry from builtins, extension tools and custom tools, then the loadout. */
	refreshTools(): void {
		this.#rebuild();
		this.#applyLoadout();
	}

	/** The definition behind a registered tool (renderers, annotations, exposure), or undefined. */
	getToolDefinition(name: string): ToolDefinition | undefined {
		return this.#registry.get(name)?.definition;
	}

	/** Exactly what the next model request declares, in order. */
	getDeclaredTools(): Tool[] {
		return declaredToolsOf(this.agent.state.tools);
	}

	/**
	 * Waits for the current run, kills the processes its commands left, removes the temp folder and closes a
	 * closable workspace (unless `keepWorkspaceOpen`). The session is unusable afterwards.
	 */
	async dispose(): Promise<void> {
		if (this.#disposed) return;
		this.#disposed = true;
		this.abort();
		await this.agent.waitForIdle();
		await this.#checkpoints.idle();
		this.#checkpoints.close();
		if (this.#hooks !== undefined) await runSessionEnd(this.#hooks, "other");
		// Extensions close what they opened (MCP servers and their processes) while the hosts still exist.
		await this.runner.shutdown();
		this.runner.setToolHost(undefined);
		this.runner.setActionHost(undefined);
		await releaseWorkspace(this.workspace, this.tempDir, this.#options.keepWorkspaceOpen === true, (message, error) =>
			this.#listeners.report(message, error),
		);
	}

	#rebuild(): void {
		// Builtin definitions depend only on the options, so they are made once and keep their identity.
		this.#builtinSources ??= createBuiltinToolSources({
			options: this.#options,
			workspace: this.workspace,
			tempDir: this.tempDir,
			registry: this.#registry,
			getModel: this.#getModel,
			...withoutUndefined({ grepSkips: this.permissions.searchSkips("grep", this.workspace) }),
			activate: (names) => {
				this.#registry.activate(names);
				this.#applyLoadout();
			},
		});
		const sources: ToolSource[] = [
			...this.#builtinSources,
			...this.runner
				.getAllRegisteredTools()
				.map((definition) => ({ definition, source: this.runner.getToolSource(definition.name) ?? "extension" })),
			...(this.#options.customTools ?? []).map((definition) => ({ definition, source: "sdk" })),
		];
		this.#registry.rebuild(sources, {
			isAllowed: this.#isAllowed,
			namedInAllowlist: this.#namedInAllowlist,
			wrap: (definition) =>
				wrapToolDefinition(definition, (toolCallId, signal, call) =>
					this.runner.createToolContext(toolCallId, signal, call),
				),
		});
	}

	#applyLoadout(): void {
		const loadout = applyToolLoadout(this.#registry, (error, tool) =>
			this.#listeners.report(`prepareLoadout of ${tool} failed; its changes were ignored`, error),
		);
		this.agent.state.tools = loadout.declared;
		this.agent.state.systemPrompt = buildSystemPrompt(
			withoutUndefined({
				cwd: this.workspace.isLocal ? this.workspace.cwd : `${this.workspace.cwd} (on ${this.workspace.label})`,
				declared: loadout.declaredDefinitions,
				basePrompt: this.#options.systemPrompt,
				appendix: this.#options.appendSystemPrompt,
				contextFiles: this.contextFiles,
			}),
		);
		const active = this.#registry.activeNames();
		this.#transcript?.appendToolChange(this.#persistedActive, active);
		this.#persistedActive = active;
	}

	#callableTools(): AgentTool[] {
		return this.#registry.callableEntries().map((entry) => entry.tool);
	}

	async #onAgentEvent(event: AgentEvent): Promise<void> {
		// A hook said `continue: false`: the run ends after this turn (no further model request).
		if (event.type === "turn_end" && this.#hooks?.stopRequest !== undefined) this.agent.abort();
		if (event.type === "message_start" && isToolResult(event.message)) {
			const book = this.#nested.takeRecords(event.message.toolCallId);
			if (book && book.calls.length > 0) event.message.nestedCalls = book.toNestedToolCalls();
			if (book?.usage) event.message.usage = addUsage(event.message.usage ?? emptyUsage(), book.usage);
		}
		if (event.type === "message_end" && this.#transcript !== undefined) {
			const execution = isToolResult(event.message) ? this.#executions.get(event.message.toolCallId) : undefined;
			if (execution !== undefined) this.#executions.delete((event.message as { toolCallId: string }).toolCallId);
			this.#transcript.appendMessage(event.message, execution);
		}
		await this.#broadcast(event);
		// Restored places of tools that never registered are dropped before the first request, once the
		// extensions have had their turn_start (MCP servers still connecting are waited for there).
		if (event.type === "turn_start" && !this.#ranOnce) {
			this.#ranOnce = true;
			if (this.#registry.dropPending().length > 0) this.#applyLoadout();
		}
	}

	#deliverNested(event: AgentEvent): Promise<void> {
		this.#nestedDelivery = this.#nestedDelivery.then(() => this.#broadcast(event));
		return this.#nestedDelivery;
	}

	async #broadcast(event: AgentSessionEvent): Promise<void> {
		if (!compaction.isCompactionEvent(event)) await this.runner.emit(event);
		await this.#listeners.deliver(event);
	}
}
