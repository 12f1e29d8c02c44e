// @gantry/tools public API: createReadToolDefinition, createBashToolDefinition, createEditToolDefinition,
// createWriteToolDefinition, createGrepToolDefinition, createFindToolDefinition, createLsToolDefinition,
// createPowerShellToolDefinition, createAllToolDefinitions, createCodingToolDefinitions,
// createReadOnlyToolDefinitions, each tool's schema / local operations / types, DEFAULT_MAX_LINES,
// DEFAULT_MAX_BYTES, GREP_MAX_LINE_LENGTH, BASH_UPDATE_THROTTLE_MS, DEFAULT_GREP_LIMIT, truncateHead,
// truncateTail, truncateLine, formatSize, OutputAccumulator, processImage, processImageBytes, image limits,
// resolveToolPath, withFileMutationQueue.
export {
	BASH_UPDATE_THROTTLE_MS,
	type BashOperations,
	type BashToolDetails,
	type BashToolInput,
	type BashToolOptions,
	bashSchema,
	createBashToolDefinition,
	createLocalBashOperations,
	localBashOperations,
} from "./bash.js";
export {
	createEditToolDefinition,
	type EditOperations,
	type EditToolDetails,
	type EditToolInput,
	type EditToolOptions,
	editOutputSchema,
	editSchema,
	localEditOperations,
} from "./edit.js";
export {
	createFindToolDefinition,
	DEFAULT_FIND_LIMIT,
	type FindOperations,
	type FindToolDetails,
	type FindToolInput,
	type FindToolOptions,
	findOutputSchema,
	findSchema,
	localFindOperations,
} from "./find.js";
export {
	createGrepToolDefinition,
	DEFAULT_GREP_LIMIT,
	type GrepOperations,
	type GrepToolDetails,
	type GrepToolInput,
	type GrepToolOptions,
	grepOutputSchema,
	grepSchema,
	localGrepOperations,
} from "./grep.js";
export {
	DEFAULT_IMAGE_MAX_BYTES,
	DEFAULT_IMAGE_MAX_HEIGHT,
	DEFAULT_IMAGE_MAX_WIDTH,
	type ImageResizeLimits,
} from "./image/limits.js";
export { type ProcessedImage, processImage, processImageBytes } from "./image/process-image.js";
export {
	createLsToolDefinition,
	DEFAULT_LS_LIMIT,
	type LsOperations,
	type LsToolDetails,
	type LsToolInput,
	type LsToolOptions,
	localLsOperations,
	lsOutputSchema,
	lsSchema,
} from "./ls.js";
export { withFileMutationQueue } from "./mutation-queue.js";
export { OutputAccumulator, type OutputAccumulatorOptions, type OutputSnapshot } from "./output-accumulator.js";
export { resolveToolPath } from "./paths.js";
export {
	createLocalPowerShellOperations,
	createPowerShellToolDefinition,
	localPowerShellOperations,
	type PowerShellOperations,
	type PowerShellToolDetails,
	type PowerShellToolInput,
	type PowerShellToolOptions,
	powershellSchema,
} from "./powershell.js";
export {
	createReadToolDefinition,
	localReadOperations,
	type ReadOperations,
	type ReadOptionSource,
	type ReadToolDetails,
	type ReadToolInput,
	type ReadToolOptions,
	readOutputSchema,
	readSchema,
} from "./read.js";
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
	createWriteToolDefinition,
	localWriteOperations,
	type WriteOperations,
	type WriteToolDetails,
	type WriteToolInput,
	type WriteToolOptions,
	writeOutputSchema,
	writeSchema,
} from "./write.js";
