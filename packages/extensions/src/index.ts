// @gantry/extensions public API: ToolDefinition, ToolExposure, ToolAnnotations, ToolNamespace, ToolLoadout,
// ToolLoadoutChanges, ExtensionToolContext, ExecuteToolOptions, Theme, plainTheme, defineTool,
// wrapToolDefinition, createToolDefinitionFromAgentTool, ToolContextFactory, event types, ExtensionAPI,
// ExtensionContext, ExtensionUI, ToolInfo, Extension.

export type {
	ExtensionEventType,
	LifecycleEvent,
	LifecycleEventType,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
} from "./events.js";
export type {
	Extension,
	ExtensionAPI,
	ExtensionContext,
	ExtensionUI,
	LifecycleHandler,
	ToolCallHandler,
	ToolInfo,
	ToolResultHandler,
} from "./extension-api.js";
export { plainTheme, type Theme } from "./theme.js";
export {
	defineTool,
	type ExecuteToolOptions,
	type ExtensionToolContext,
	type ToolAnnotations,
	type ToolDefinition,
	type ToolExposure,
	type ToolLoadout,
	type ToolLoadoutChanges,
	type ToolNamespace,
} from "./tool-definition.js";
export { createToolDefinitionFromAgentTool, type ToolContextFactory, wrapToolDefinition } from "./wrap.js";
