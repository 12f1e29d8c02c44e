// @gantry/agent public API: agentLoop, agentLoopContinue, runToolCall, validateToolArguments, createToolResultMessage,
// defaultConvertToLlm, Agent, GantryAgentError, and types (AgentTool, AgentToolResult, AgentToolCall, AgentToolCallOutcome,
// Before/AfterToolCall*, RunToolCallOptions, AgentContext, AgentLoopConfig, AgentEvent, AgentMessage, AgentState,
// AgentOptions, AgentListener, GantryAgentErrorCode).
export { Agent, type AgentListener, type AgentOptions } from "./agent.js";
export { agentLoop, agentLoopContinue } from "./agent-loop.js";
export { defaultConvertToLlm } from "./assistant-response.js";
export { GantryAgentError, type GantryAgentErrorCode } from "./errors.js";
export { runToolCall } from "./tool-call.js";
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
