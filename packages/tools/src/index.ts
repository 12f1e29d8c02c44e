// @gantry/tools public API: createReadToolDefinition, createBashToolDefinition, createEditToolDefinition,
// createWriteToolDefinition, createGrepToolDefinition, createFindToolDefinition, createLsToolDefinition,
// createPowerShellToolDefinition, createAllToolDefinitions, createCodingToolDefinitions,
// createReadOnlyToolDefinitions, createApplyPatchToolDefinition, parsePatch, PatchParseError,
// APPLY_PATCH_LARK_GRAMMAR, each tool's schema / local operations / types, DEFAULT_MAX_LINES,
// DEFAULT_MAX_BYTES, GREP_MAX_LINE_LENGTH, BASH_UPDATE_THROTTLE_MS, truncateHead,
// truncateTail, truncateLine, formatSize, OutputAccumulator, processImage, processImageBytes, image limits,
// looksBinary, createOutputPump (the read-pause-drain loop of a Workspace spawn), resolveToolPath, resolveExistingPath (look-alike names), withFileMutationQueue, createLocalWorkspace and the
// Workspace contract types, toolProcessEnvironment and isSecretVariableName (tool processes without secrets).

export { createApplyPatchToolDefinition } from "./apply-patch/apply-patch.js";
export { APPLY_PATCH_LARK_GRAMMAR } from "./apply-patch/grammar.js";
export { PatchParseError, parsePatch } from "./apply-patch/parse.js";
export {
	type ApplyPatchFileChange,
	type ApplyPatchToolDetails,
	type ApplyPatchToolInput,
	type ApplyPatchToolOptions,
	applyPatchOutputSchema,
	applyPatchSchema,
	type PatchAction,
	type PatchChunk,
} from "./apply-patch/types.js";
export { createEditToolDefinition, localEditOperations } from "./edit/edit.js";
export {
	type EditOperations,
	type EditToolDetails,
	type EditToolInput,
	type EditToolOptions,
	editOutputSchema,
	editSchema,
} from "./edit/types.js";
export { type PathLookup, resolveExistingPath } from "./existing-path.js";
export { createFindToolDefinition, localFindOperations } from "./find/find.js";
export {
	DEFAULT_FIND_LIMIT,
	type FindOperations,
	type FindToolDetails,
	type FindToolInput,
	type FindToolOptions,
	findOutputSchema,
	findSchema,
} from "./find/types.js";
export { createGrepToolDefinition, localGrepOperations } from "./grep/grep.js";
export {
	DEFAULT_GREP_LIMIT,
	type GrepOperations,
	type GrepToolDetails,
	type GrepToolInput,
	type GrepToolOptions,
	grepOutputSchema,
	grepSchema,
} from "./grep/types.js";
export {
	DEFAULT_IMAGE_MAX_BYTES,
	DEFAULT_IMAGE_MAX_HEIGHT,
	DEFAULT_IMAGE_MAX_WIDTH,
	type ImageResizeLimits,
} from "./image/limits.js";
export { type ProcessedImage, processImage, processImageBytes } from "./image/process-image.js";
export { createLsToolDefinition, localLsOperations } from "./ls/ls.js";
export {
	DEFAULT_LS_LIMIT,
	type LsOperations,
	type LsToolDetails,
	type LsToolInput,
	type LsToolOptions,
	lsOutputSchema,
	lsSchema,
} from "./ls/types.js";
export { withFileMutationQueue } from "./mutation-queue.js";
export { OutputAccumulator, type OutputAccumulatorOptions, type OutputSnapshot } from "./output-accumulator.js";
export { resolveToolPath } from "./paths.js";
export { looksBinary } from "./read/binary.js";
export { createReadToolDefinition, localReadOperations } from "./read/read.js";
export {
	type ReadOperations,
	type ReadOptionSource,
	type ReadToolDetails,
	type ReadToolInput,
	type ReadToolOptions,
	readOutputSchema,
	readSchema,
} from "./read/types.js";
export { compileFindPattern, type FindPattern } from "./search/find-pattern.js";
export {
	BASH_UPDATE_THROTTLE_MS,
	createBashToolDefinition,
	createLocalBashOperations,
	localBashOperations,
} from "./shell/bash.js";
export {
	createLocalPowerShellOperations,
	createPowerShellToolDefinition,
	localPowerShellOperations,
} from "./shell/powershell.js";
export {
	type BashOperations,
	type BashToolDetails,
	type BashToolInput,
	type BashToolOptions,
	bashSchema,
	type PowerShellOperations,
	type PowerShellToolDetails,
	type PowerShellToolInput,
	type PowerShellToolOptions,
	powershellSchema,
} from "./shell/types.js";
export {
	type AllToolsOptions,
	type BuiltinToolName,
	createAllToolDefinitions,
	createCodingToolDefinitions,
	createReadOnlyToolDefinitions,
} from "./tool-sets.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	type TruncationOptions,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
} from "./truncate.js";
export {
	createLocalWorkspace,
	type LocalWorkspace,
	type LocalWorkspaceOptions,
} from "./workspace/local/local-workspace.js";
export {
	isSecretVariableName,
	type ToolEnvironmentOptions,
	toolProcessEnvironment,
} from "./workspace/local/tool-environment.js";
export { createOutputPump, type OutputPump, type OutputPumpOptions } from "./workspace/output-pump.js";
export type {
	Workspace,
	WorkspaceDirEntry,
	WorkspaceExitStatus,
	WorkspaceFileHandle,
	WorkspaceFileKind,
	WorkspaceFileSystem,
	WorkspaceLinkStat,
	WorkspaceProcesses,
	WorkspaceSpawnOptions,
	WorkspaceStat,
	WorkspaceWriteHandle,
} from "./workspace/types.js";
export {
	type WriteOperations,
	type WriteToolDetails,
	type WriteToolInput,
	type WriteToolOptions,
	writeOutputSchema,
	writeSchema,
} from "./write/types.js";
export { createWriteToolDefinition, localWriteOperations } from "./write/write.js";
