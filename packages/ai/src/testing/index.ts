// @gantry/ai/testing public API: startScriptedLlmServer, ScriptedLlmServer, ScriptedLlmServerOptions,
// ScriptedResponse, ScriptedResponseSource, ScriptedReply, ScriptedHttpError, ScriptedRawReply,
// ScriptedNoAnswer, ScriptedToolCall, ScriptedUsage,
// RecordedLlmRequest.
export {
	type ScriptedLlmServer,
	type ScriptedLlmServerOptions,
	startScriptedLlmServer,
} from "./scripted-llm-server.js";
export type {
	RecordedLlmRequest,
	ScriptedHttpError,
	ScriptedNoAnswer,
	ScriptedRawReply,
	ScriptedReply,
	ScriptedResponse,
	ScriptedResponseSource,
	ScriptedToolCall,
	ScriptedUsage,
} from "./scripted-response.js";
