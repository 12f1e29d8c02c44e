import type { AgentEvent, ToolCallIdentity } from "@gantry/agent";
import type { Model } from "@gantry/ai";
import { errorText } from "@gantry/ai";
import { ExtensionError } from "./errors.js";
import type {
	ExtensionEventType,
	LifecycleEventType,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
} from "./events.js";
import type {
	Extension,
	ExtensionContext,
	ExtensionUI,
	LifecycleHandler,
	SessionShutdownHandler,
	ToolCallHandler,
	ToolInfo,
	ToolResultHandler,
} from "./extension-api.js";
import type { ExtensionWorkspace } from "./extension-workspace.js";
import type { LoadedExtension } from "./loader.js";
import { NO_UI } from "./no-ui.js";
import { RegisteredTools } from "./registered-tools.js";
import {
	createExtensionAPI,
	createExtensionRecord,
	type ExtensionApiBackend,
	type ExtensionRecord,
} from "./runner-api.js";
import { dispatchLifecycle, dispatchToolCall, dispatchToolResult, type HandlerEntry } from "./runner-dispatch.js";
import type {
	ExtensionActionHost,
	ExtensionDiagnostic,
	ExtensionErrorListener,
	ExtensionRunnerOptions,
	ExtensionToolHost,
	ToolsChangedEvent,
	ToolsChangedListener,
} from "./runner-types.js";
import { createExtensionToolContext } from "./tool-context.js";
import type { ExtensionToolContext, ToolDefinition } from "./tool-definition.js";
import { createToolInfo } from "./tool-info.js";

const LIFECYCLE_EVENTS: ReadonlySet<string> = new Set<LifecycleEventType>([
	"tool_execution_start",
	"tool_execution_update",
	"tool_execution_end",
	"agent_start",
	"agent_end",
	"turn_start",
	"turn_end",
]);

/**
 * Runs extension functions, keeps what they register (tools, handlers) and dispatches events to them.
 * A session wraps its tools with `createToolContext`, connects `emitToolCall` / `emitToolResult` to the
 * agent's `beforeToolCall` / `afterToolCall`, forwards agent events to `emit`, and binds itself with
 * `setToolHost` and `setActionHost`.
 */
export class ExtensionRunner {
	readonly cwd: string;
	readonly hasUI: boolean;
	readonly ui: ExtensionUI;
	readonly #model: Model | undefined;
	readonly #workspace: ExtensionWorkspace | undefined;
	readonly #records: ExtensionRecord[] = [];
	readonly #tools = new RegisteredTools();
	readonly #diagnostics: ExtensionDiagnostic[] = [];
	readonly #errorListeners = new Set<ExtensionErrorListener>();
	readonly #toolsChangedListeners = new Set<ToolsChangedListener>();
	readonly #backend: ExtensionApiBackend;
	#toolHost: ExtensionToolHost | undefined;
	#actionHost: ExtensionActionHost | undefined;
	#requestedActiveTools: string[] | undefined;

	constructor(options: ExtensionRunnerOptions) {
		this.cwd = options.cwd;
		this.ui = options.ui ?? NO_UI;
		this.hasUI = options.hasUI ?? options.ui !== undefined;
		this.#model = options.model;
		this.#workspace = options.workspace;
		this.#backend = {
			registerTool: (record, definition) => this.#registerTool(record, definition),
			unregisterTool: (record, name, reason) => this.#unregisterTool(record, name, reason),
			getToolInfo: (name) => this.#toolInfo(name),
			getActiveTools: () => this.#actionHost?.getActiveTools() ?? this.#tools.activeNames(this.#requestedActiveTools),
			getAllTools: () => this.#actionHost?.getAllTools() ?? this.#tools.infos(),
			setActiveTools: (names) => {
				if (this.#actionHost) this.#actionHost.setActiveTools(names);
				else this.#requestedActiveTools = [...names];
			},
			refreshTools: () => this.#actionHost?.refreshTools(),
		};
	}

	/**
	 * Runs `extension` with an `ExtensionAPI` bound to `source` (its path or a name; default `"<inline>"`).
	 * Its tools are registered at once; its handlers receive events once it has finished. Rejects with an
	 * `ExtensionError` naming `source` when the function throws; nothing it registered is kept then.
	 */
	async add(extension: Extension, source = "<inline>"): Promise<void> {
		if (typeof extension !== "function") {
			throw new ExtensionError("extension_failed", source, `Extension ${source} is not a function`);
		}
		const record = createExtensionRecord(source);
		try {
			await extension(createExtensionAPI(record, this.#backend));
		} catch (error) {
			this.#tools.forget(record.loadingTools ?? []);
			if (error instanceof ExtensionError && error.source === source) throw error;
			throw new ExtensionError("extension_failed", source, `Extension ${source} failed: ${errorText(error)}`, {
				cause: error,
			});
		}
		const added = record.loadingTools ?? [];
		delete record.loadingTools;
		this.#records.push(record);
		if (added.length > 0) this.#notifyToolsChanged({ source, toolNames: added, removedToolNames: [] });
	}

	/**
	 * Adds the result of `loadExtensions`, in order. Never throws: load errors and extensions that throw
	 * become diagnostics (`load_failed`, `extension_failed`) and reach the error listeners.
	 */
	async addLoaded(loaded: readonly LoadedExtension[]): Promise<void> {
		for (const entry of loaded) {
			if (entry.error !== undefined) {
				this.#report({ code: "load_failed", source: entry.path, message: entry.error.message, error: entry.error });
				continue;
			}
			try {
				await this.add(entry.extension, entry.path);
			} catch (error) {
				this.#report({ code: "extension_failed", source: entry.path, message: errorText(error), error });
			}
		}
	}

	/** Sources of the added extensions, in load order. */
	getExtensionSources(): string[] {
		return this.#records.map((record) => record.source);
	}

	/** Every tool the extensions registered, in registration order (conflicting later ones left out). */
	getAllRegisteredTools(): ToolDefinition[] {
		return this.#tools.definitions();
	}

	/** The source of the extension that registered `name`, or undefined. */
	getToolSource(name: string): string | undefined {
		return this.#tools.sourceOf(name);
	}

	/** Conflicts and load/setup failures so far (handler failures only go to `onError` listeners). */
	getDiagnostics(): readonly ExtensionDiagnostic[] {
		return [...this.#diagnostics];
	}

	/** Calls `listener` with every diagnostic, including handler failures. Returns an unsubscribe function. */
	onError(listener: ExtensionErrorListener): () => void {
		this.#errorListeners.add(listener);
		return () => this.#errorListeners.delete(listener);
	}

	/**
	 * Calls `listener` when an extension's tools were added: at the end of `add`, and at once for tools
	 * registered, replaced or unregistered later (from a handler or a timer). A session refreshes its
	 * registry then. Returns an unsubscribe.
	 */
	onToolsChanged(listener: ToolsChangedListener): () => void {
		this.#toolsChangedListeners.add(listener);
		return () => this.#toolsChangedListeners.delete(listener);
	}

	/** Whether any added extension handles `type` (lets a session skip work nobody observes). */
	hasHandlers(type: ExtensionEventType): boolean {
		return this.#records.some((record) => (record.handlers.get(type)?.length ?? 0) > 0);
	}

	/**
	 * Asks the `tool_call` handlers. Returns the first result with `block` (at once), else the last object
	 * result, else undefined. A throwing handler blocks the call with `Extension <source> failed: <message>`.
	 */
	emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
		return dispatchToolCall(this.#entries<ToolCallHandler>("tool_call"), event, this.createContext(), this.#reporter);
	}

	/**
	 * Runs the `tool_result` handlers as middleware. Returns the merged overrides, or undefined when no
	 * handler changed anything. A throwing handler is reported to the error listeners and skipped.
	 */
	emitToolResult(event: ToolResultEvent): Promise<ToolResultEventResult | undefined> {
		return dispatchToolResult(
			this.#entries<ToolResultHandler>("tool_result"),
			event,
			this.createContext(),
			this.#reporter,
		);
	}

	/** Hands an agent event to its observers (non-lifecycle events are ignored). Never rejects. */
	async emit(event: AgentEvent): Promise<void> {
		if (!LIFECYCLE_EVENTS.has(event.type)) return;
		await dispatchLifecycle(
			this.#entries<LifecycleHandler>(event.type as ExtensionEventType),
			event,
			this.createContext(),
			this.#reporter,
		);
	}

	/**
	 * Tells every extension the session ends (`session_shutdown`), in load order, awaiting each handler.
	 * Never rejects: a failing handler is reported and the next one still runs.
	 */
	async shutdown(): Promise<void> {
		const context = this.createContext();
		for (const { source, handler } of this.#entries<SessionShutdownHandler>("session_shutdown")) {
			try {
				await handler({ type: "session_shutdown" }, context);
			} catch (error) {
				this.#reporter(source, "session_shutdown", error);
			}
		}
	}

	/** The `ExtensionContext` handlers receive, reflecting the bound action host's model and run. */
	createContext(): ExtensionContext {
		const host = this.#actionHost;
		const context: ExtensionContext = {
			cwd: this.cwd,
			hasUI: this.hasUI,
			ui: this.ui,
			abort: () => this.#actionHost?.abort?.(),
		};
		const model = host?.getModel?.() ?? this.#model;
		if (model !== undefined) context.model = model;
		const signal = host?.getSignal?.();
		if (signal !== undefined) context.signal = signal;
		if (this.#workspace !== undefined) context.workspace = this.#workspace;
		return context;
	}

	/**
	 * The context a tool's `execute` receives; pass it as `wrapToolDefinition`'s factory. `call` (from the
	 * pipeline) numbers the nested calls; default: a root identity for `toolCallId`.
	 */
	createToolContext(toolCallId: string, signal?: AbortSignal, call?: ToolCallIdentity): ExtensionToolContext {
		const source = {
			cwd: this.cwd,
			hasUI: this.hasUI,
			getModel: () => this.#actionHost?.getModel?.() ?? this.#model,
			getToolHost: () => this.#toolHost,
		};
		return createExtensionToolContext(source, toolCallId, signal, call);
	}

	/** Binds (or with undefined, unbinds) what `ctx.tools` and `ctx.executeTool` reach. */
	setToolHost(host: ExtensionToolHost | undefined): void {
		this.#toolHost = host;
	}

	/**
	 * Binds (or unbinds) what the tool actions of `ExtensionAPI` and the run state of `ExtensionContext`
	 * delegate to. A `setActiveTools` request made before is forwarded to the new host. May throw what the
	 * host's `setActiveTools` throws.
	 */
	setActionHost(host: ExtensionActionHost | undefined): void {
		this.#actionHost = host;
		const requested = this.#requestedActiveTools;
		if (host === undefined || requested === undefined) return;
		this.#requestedActiveTools = undefined;
		host.setActiveTools(requested);
	}

	#registerTool(record: ExtensionRecord, definition: ToolDefinition): void {
		const outcome = this.#tools.add(definition, record);
		if (outcome.kind === "conflict") {
			const message = `Tool "${definition.name}" from extension ${record.source} was ignored: extension ${outcome.conflictsWith} registered it first`;
			this.#report({ code: "tool_conflict", source: record.source, toolName: definition.name, message });
			return;
		}
		if (record.loadingTools !== undefined) {
			if (!record.loadingTools.includes(definition.name)) record.loadingTools.push(definition.name);
		} else {
			this.#notifyToolsChanged({ source: record.source, toolNames: [definition.name], removedToolNames: [] });
		}
	}

	#unregisterTool(record: ExtensionRecord, name: string, reason: string | undefined): boolean {
		if (!this.#tools.remove(name, record)) return false;
		const loading = record.loadingTools;
		if (loading !== undefined) {
			// Never announced: forget it, as if it had not been registered.
			this.#tools.forget([name]);
			loading.splice(loading.indexOf(name), 1);
			return true;
		}
		const change: ToolsChangedEvent = { source: record.source, toolNames: [], removedToolNames: [name] };
		if (reason !== undefined) change.reason = reason;
		this.#notifyToolsChanged(change);
		return true;
	}

	#toolInfo(name: string): ToolInfo | undefined {
		const host = this.#actionHost;
		if (host === undefined) {
			const tool = this.#tools.get(name);
			return tool === undefined ? undefined : createToolInfo(tool.definition, tool.source);
		}
		if (host.getToolInfo !== undefined) return host.getToolInfo(name);
		return host.getAllTools().find((info) => info.name === name);
	}

	#entries<THandler>(type: ExtensionEventType): HandlerEntry<THandler>[] {
		return this.#records.flatMap((record) =>
			(record.handlers.get(type) ?? []).map((handler) => ({ source: record.source, handler: handler as THandler })),
		);
	}

	readonly #reporter = (source: string, event: ExtensionEventType, error: unknown) => {
		const message = `Extension ${source} failed in ${event}: ${errorText(error)}`;
		this.#notifyError({ code: "handler_failed", source, event, message, error });
	};

	#report(diagnostic: ExtensionDiagnostic): void {
		this.#diagnostics.push(diagnostic);
		this.#notifyError(diagnostic);
	}

	#notifyError(diagnostic: ExtensionDiagnostic): void {
		for (const listener of [...this.#errorListeners]) {
			try {
				listener(diagnostic);
			} catch {
				// A broken listener must not break dispatch.
			}
		}
	}

	#notifyToolsChanged(change: ToolsChangedEvent): void {
		for (const listener of [...this.#toolsChangedListeners]) {
			try {
				listener(change);
			} catch {
				// Same as error listeners: never let a listener break registration.
			}
		}
	}
}
