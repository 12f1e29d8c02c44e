import { ExtensionError } from "./errors.js";
import type { ExtensionEventType } from "./events.js";
import type {
	ExtensionAPI,
	LifecycleHandler,
	SessionShutdownHandler,
	ToolCallHandler,
	ToolInfo,
	ToolResultHandler,
} from "./extension-api.js";
import type { ToolDefinition } from "./tool-definition.js";
import { assertValidToolDefinition } from "./tool-validation.js";

const EVENT_TYPES: readonly ExtensionEventType[] = [
	"tool_call",
	"tool_result",
	"session_shutdown",
	"tool_execution_start",
	"tool_execution_update",
	"tool_execution_end",
	"agent_start",
	"agent_end",
	"turn_start",
	"turn_end",
];

/** Handlers of any event, stored untyped; the runner reads them back per event type. */
type StoredHandler = ToolCallHandler | ToolResultHandler | LifecycleHandler | SessionShutdownHandler;

/** What the runner keeps of one added extension. */
export interface ExtensionRecord {
	source: string;
	handlers: Map<ExtensionEventType, StoredHandler[]>;
	/** Names of the tools registered while the extension function still runs (removed again if it throws). */
	loadingTools?: string[];
}

/** The runner's side of an `ExtensionAPI`: tool registration and the tool actions. */
export interface ExtensionApiBackend {
	/** Validated definitions only; decides about conflicts. */
	registerTool(record: ExtensionRecord, definition: ToolDefinition): void;
	unregisterTool(record: ExtensionRecord, name: string, reason: string | undefined): boolean;
	getToolInfo(name: string): ToolInfo | undefined;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	setActiveTools(names: string[]): void;
	refreshTools(): void;
}

export function createExtensionRecord(source: string): ExtensionRecord {
	return { source, handlers: new Map(), loadingTools: [] };
}

/** Builds the `ExtensionAPI` bound to one extension: everything it registers is attributed to `record.source`. */
export function createExtensionAPI(record: ExtensionRecord, backend: ExtensionApiBackend): ExtensionAPI {
	const on = (type: ExtensionEventType, handler: StoredHandler) => {
		if (!EVENT_TYPES.includes(type)) {
			throw new ExtensionError(
				"invalid_handler",
				record.source,
				`Extension ${record.source}: unknown event ${JSON.stringify(type)} (known: ${EVENT_TYPES.join(", ")})`,
			);
		}
		if (typeof handler !== "function") {
			throw new ExtensionError(
				"invalid_handler",
				record.source,
				`Extension ${record.source}: the handler for "${type}" is not a function`,
			);
		}
		const list = record.handlers.get(type) ?? [];
		list.push(handler);
		record.handlers.set(type, list);
	};
	return {
		registerTool(definition) {
			assertValidToolDefinition(definition, record.source);
			backend.registerTool(record, definition);
		},
		unregisterTool: (name, reason) => backend.unregisterTool(record, name, reason),
		on: on as ExtensionAPI["on"],
		getActiveTools: () => backend.getActiveTools(),
		getAllTools: () => backend.getAllTools(),
		getToolInfo: (name) => backend.getToolInfo(name),
		setActiveTools: (names) => backend.setActiveTools(names),
		refreshTools: () => backend.refreshTools(),
	};
}
