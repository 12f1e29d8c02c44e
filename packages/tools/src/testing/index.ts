// @gantry/tools/testing: a workspace for tests that maps made-up paths onto real temp folders.
export {
	createMappedWorkspace,
	type MappedWorkspace,
	VIRTUAL_HOME,
	VIRTUAL_PROJECT,
	VIRTUAL_TEMP,
} from "./mapped-workspace.js";
