// @gantry/ai public API: types (messages, content, Usage, Tool, Context, Model, events), EventStream,
// createAssistantMessageEventStream, stream, complete, registerProvider, unregisterProvider, getProvider,
// createFauxModel, emptyUsage, addUsage, completeUsage, createAssistantMessage, failedAssistantMessage,
// GantryError, isGantryError, errorText, GantryAiError, UnsupportedStrictJsonSchemaError, makeStrictJsonSchema, toPlainJsonSchema, toolToJsonSchema,
// supportsStrictMode, getModel, getModels, DEFAULT_MODEL_IDS, createOpenAICompatibleModel, getApiKey, getApiKeyVariable,
// onProviderWarning, reportProviderWarning, modelDeprecationWarning,
// parseToolCallArguments, priceUsage, withoutUndefined.
import "./providers/builtins.js";

export { getApiKey, getApiKeyVariable } from "./api-keys.js";
export { createAssistantMessage, failedAssistantMessage } from "./assistant-message.js";
export { GantryAiError, type GantryAiErrorCode, UnsupportedStrictJsonSchemaError } from "./errors.js";
export {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	EventStream,
} from "./event-stream.js";
export { createFauxModel, type FauxModel, type FauxModelOptions, type FauxTurn, type FauxTurnSource } from "./faux.js";
export { errorText, GantryError, isGantryError } from "./gantry-error.js";
export { makeStrictJsonSchema, toPlainJsonSchema } from "./json-schema.js";
export {
	createOpenAICompatibleModel,
	DEFAULT_MODEL_IDS,
	getModel,
	getModels,
	type OpenAICompatibleModelOptions,
} from "./models.js";
export {
	modelDeprecationWarning,
	onProviderWarning,
	type ProviderWarning,
	type ProviderWarningListener,
	reportProviderWarning,
} from "./provider-warnings.js";
export { parseToolCallArguments } from "./providers/message-builder.js";
export {
	complete,
	getProvider,
	type ProviderStreamFunction,
	registerProvider,
	stream,
	unregisterProvider,
} from "./registry.js";
export { supportsStrictMode, toolToJsonSchema } from "./tool-schema.js";
export type {
	AssistantMessage,
	AssistantMessageEvent,
	ConstrainedSampling,
	Context,
	ImageContent,
	ImageResizeLimits,
	JsonValue,
	KnownApi,
	Message,
	Model,
	ModelCost,
	NestedToolCallRecord,
	NestedToolCalls,
	ProviderContent,
	ReasoningLevel,
	StopReason,
	StreamOptions,
	TextContent,
	ThinkingContent,
	Tool,
	ToolCall,
	ToolChoice,
	ToolResultMessage,
	Usage,
	UserMessage,
} from "./types.js";
export { addUsage, completeUsage, emptyUsage, priceUsage } from "./usage.js";
export { type WithoutUndefined, withoutUndefined } from "./without-undefined.js";
