// @gantry/extensions public API: ToolDefinition, ToolExposure, ToolAnnotations, ToolNamespace, ToolLoadout,
// ToolLoadoutChanges, ExtensionToolContext, ExecuteToolOptions, Theme, plainTheme, defineTool,
// wrapToolDefinition, createToolDefinitionFromAgentTool, ToolContextFactory, event types (ToolCallEvent,
// ToolCallEventResult, ToolResultEvent, ToolResultEventResult, LifecycleEvent, LifecycleEventType,
// ExtensionEventType), ExtensionAPI, ExtensionContext, ExtensionWorkspace, ExtensionUI, ToolInfo, Extension, HandlerResult,
// ToolCallHandler, ToolResultHandler, LifecycleHandler, SessionShutdownEvent, SessionShutdownHandler,
// ExtensionRunner, ExtensionRunnerOptions,
// ExtensionToolHost, ExtensionActionHost, ExtensionDiagnostic, ExtensionDiagnosticCode, ExtensionErrorListener,
// ToolsChangedEvent, ToolsChangedListener, loadExtensions, LoadedExtension, LoadExtensionsOptions,
// ExtensionError, ExtensionErrorCode, TOOL_NAME_PATTERN, assertValidToolDefinition, createToolInfo,
// isToolActiveByDefault, and TypeBox's Type, Static and TSchema (so extension authors need no TypeBox of
// their own: one copy, one set of declarations).

export { type Static, type TSchema, Type } from "@sinclair/typebox";
export { ExtensionError, type ExtensionErrorCode } from "./errors.js";
export type {
	ExtensionEventType,
	LifecycleEvent,
	LifecycleEventType,
	SessionShutdownEvent,
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
	HandlerResult,
	LifecycleHandler,
	SessionShutdownHandler,
	ToolCallHandler,
	ToolInfo,
	ToolResultHandler,
} from "./extension-api.js";
export type { ExtensionWorkspace } from "./extension-workspace.js";
export { type LoadExtensionsOptions, type LoadedExtension, loadExtensions } from "./loader.js";
export { ExtensionRunner } from "./runner.js";
export type {
	ExtensionActionHost,
	ExtensionDiagnostic,
	ExtensionDiagnosticCode,
	ExtensionErrorListener,
	ExtensionRunnerOptions,
	ExtensionToolHost,
	ToolsChangedEvent,
	ToolsChangedListener,
} from "./runner-types.js";
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
export { createToolInfo, isToolActiveByDefault } from "./tool-info.js";
export { assertValidToolDefinition, TOOL_NAME_PATTERN } from "./tool-validation.js";
export { createToolDefinitionFromAgentTool, type ToolContextFactory, wrapToolDefinition } from "./wrap.js";
