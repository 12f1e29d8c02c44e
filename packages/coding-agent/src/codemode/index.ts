// codemode: runCodemodeScript, createCodemodeToolDefinition, the tool host interfaces, signatures, options line.
export type { CodemodeCallRecord } from "./bridge.js";
export type { CodemodeCallSummary } from "./call-records.js";
export {
	type CodemodeToolDetails,
	type CodemodeToolInput,
	type CodemodeToolOptions,
	codemodeSchema,
	createCodemodeToolDefinition,
} from "./codemode-tool.js";
export {
	buildCodemodeDescription,
	type CodemodeDescriptionOptions,
	codemodeBaseDescription,
	DEFAULT_DESCRIPTION_BUDGET,
	type DescribedTool,
	describeToolText,
} from "./description.js";
export {
	type OptionsLineResult,
	parseOptionsLine,
	type ScriptOptionLimits,
	type ScriptOptions,
} from "./options-line.js";
export {
	type CapturedOutput,
	CHARS_PER_TOKEN,
	MAX_SAVED_OUTPUT_BYTES,
	OutputCapture,
	type OutputCaptureOptions,
	type OutputFileHost,
} from "./output.js";
export {
	type CodemodeScriptResult,
	DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS,
	DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES,
	DEFAULT_CODEMODE_TIMEOUT_MS,
	MAX_SCRIPT_OUTPUT_TOKENS,
	MAX_SCRIPT_TIMEOUT_MS,
	type RunCodemodeScriptOptions,
	runCodemodeScript,
} from "./sandbox.js";
export { formatToolSignature, type SignatureSource, schemaToTypeScript, type ToolSignature } from "./signatures.js";
export {
	type CodemodeCatalog,
	type CodemodeToolFacts,
	type CodemodeToolHost,
	type CodemodeToolInfo,
	createContextToolHost,
	scriptCallableTools,
} from "./tool-host.js";
export { toolAccessor, toolId } from "./tool-ids.js";
export { loadQuickJsModule } from "./wasm-module.js";
