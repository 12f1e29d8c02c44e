import { type Model, withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { createApplyPatchToolDefinition } from "./apply-patch/apply-patch.js";
import type { ApplyPatchToolOptions } from "./apply-patch/types.js";
import { createEditToolDefinition } from "./edit/edit.js";
import type { EditToolOptions } from "./edit/types.js";
import { createFindToolDefinition } from "./find/find.js";
import type { FindToolOptions } from "./find/types.js";
import { createGrepToolDefinition } from "./grep/grep.js";
import type { GrepToolOptions } from "./grep/types.js";
import { createLsToolDefinition } from "./ls/ls.js";
import type { LsToolOptions } from "./ls/types.js";
import { createReadToolDefinition } from "./read/read.js";
import type { ReadOptionSource, ReadToolOptions } from "./read/types.js";
import { createBashToolDefinition } from "./shell/bash.js";
import { createPowerShellToolDefinition } from "./shell/powershell.js";
import type { BashToolOptions, PowerShellToolOptions } from "./shell/types.js";
import type { Workspace } from "./workspace/types.js";
import { workspaceOf } from "./workspace/workspace-of.js";
import type { WriteToolOptions } from "./write/types.js";
import { createWriteToolDefinition } from "./write/write.js";

export type BuiltinToolName =
	| "read"
	| "bash"
	| "edit"
	| "write"
	| "grep"
	| "find"
	| "ls"
	| "powershell"
	| "apply_patch";

/** Options for every builtin at once; the per-tool options win over the shared ones. */
export interface AllToolsOptions {
	/** Folder for full-output files of bash and powershell. Default the workspace's `tempDir`. */
	tempDir?: string;
	/** The model images are read for (or a getter for the current one). */
	model?: ReadOptionSource<Model>;
	/** Resize images read from files to the model's limits. Default true. */
	autoResizeImages?: boolean;
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	edit?: EditToolOptions;
	write?: WriteToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
	powershell?: PowerShellToolOptions;
	apply_patch?: ApplyPatchToolOptions;
}

/** Every builtin tool definition, by name, all acting on one workspace (a string: a local folder). */
export function createAllToolDefinitions(
	cwdOrWorkspace: string | Workspace,
	options: AllToolsOptions = {},
): Record<BuiltinToolName, ToolDefinition> {
	const workspace = workspaceOf(cwdOrWorkspace);
	const shared = withoutUndefined({ tempDir: options.tempDir });
	const readShared = withoutUndefined({ model: options.model, autoResizeImages: options.autoResizeImages });
	return {
		read: createReadToolDefinition(workspace, { ...readShared, ...options.read }),
		bash: createBashToolDefinition(workspace, { ...shared, ...options.bash }),
		edit: createEditToolDefinition(workspace, options.edit),
		write: createWriteToolDefinition(workspace, options.write),
		grep: createGrepToolDefinition(workspace, options.grep),
		find: createFindToolDefinition(workspace, options.find),
		ls: createLsToolDefinition(workspace, options.ls),
		powershell: createPowerShellToolDefinition(workspace, { ...shared, ...options.powershell }),
		apply_patch: createApplyPatchToolDefinition(workspace, options.apply_patch),
	};
}

/** The tools that change files and run commands: read, bash, edit, write. */
export function createCodingToolDefinitions(
	cwdOrWorkspace: string | Workspace,
	options: AllToolsOptions = {},
): ToolDefinition[] {
	const all = createAllToolDefinitions(cwdOrWorkspace, options);
	return [all.read, all.bash, all.edit, all.write];
}

/** The tools that only look: read, grep, find, ls. */
export function createReadOnlyToolDefinitions(
	cwdOrWorkspace: string | Workspace,
	options: AllToolsOptions = {},
): ToolDefinition[] {
	const all = createAllToolDefinitions(cwdOrWorkspace, options);
	return [all.read, all.grep, all.find, all.ls];
}
