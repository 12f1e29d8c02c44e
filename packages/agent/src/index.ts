// @gantry/agent public API: agentLoop, agentLoopContinue, runToolCall, ToolCallIdentity, mergeToolResult,
// validateToolArguments, createToolResultMessage, defaultConvertToLlm, Agent, GantryAgentError, errorText,
// throwIfAborted, ABORTED_TEXT, elideMiddle, boundErrorText, MAX_ERROR_TEXT_CHARS, and types (AgentTool,
// AgentToolResult, AgentToolCall, AgentToolCallOutcome, Before/AfterToolCall*, RunToolCallOptions, ToolResolver,
// ToolResultFields, AgentContext, AgentLoopConfig, AgentEvent, AgentMessage, AgentState, AgentOptions,
// AgentStreamOptions, AgentListener, GantryAgentErrorCode).

export { ABORTED_TEXT, throwIfAborted } from "./abort.js";
export { Agent, type AgentListener, type AgentOptions } from "./agent.js";
export { agentLoop, agentLoopContinue } from "./agent-loop.js";
export { defaultConvertToLlm } from "./assistant-response.js";
export { errorText, GantryAgentError, type GantryAgentErrorCode } from "./errors.js";
export { boundErrorText, elideMiddle, MAX_ERROR_TEXT_CHARS } from "./text-limits.js";
export { ToolCallIdentity } from "./tool-call-identity.js";
export { runToolCall } from "./tool-pipeline.js";
export { mergeToolResult, type ToolResultFields } from "./tool-result-merge.js";
export { createToolResultMessage } from "./tool-result-message.js";
export type {
	AfterToolCallContext,
	AfterToolCallHook,
	AfterToolCallResult,
	AgentContext,
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentState,
	AgentStreamOptions,
	AgentTool,
	AgentToolCall,
	AgentToolCallOutcome,
	AgentToolResult,
	AgentToolUpdateCallback,
	BeforeToolCallContext,
	BeforeToolCallHook,
	BeforeToolCallResult,
	CustomAgentMessages,
	RunToolCallOptions,
	ToolResolver,
} from "./types.js";
export { validateToolArguments } from "./validation.js";
