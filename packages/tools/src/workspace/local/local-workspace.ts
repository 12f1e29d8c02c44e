import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { gitUserOf } from "../../search/git-excludes.js";
import type { Workspace } from "../types.js";
import { localFileSystem } from "./file-system.js";
import { localGlob } from "./glob.js";
import { localHome, resolveLocalPath } from "./paths.js";
import { createLocalProcesses, type LocalProcesses, type LocalProcessesOptions } from "./processes.js";

export interface LocalWorkspaceOptions extends LocalProcessesOptions {
	/** Existing folder for full-output and spill files. Default `os.tmpdir()`. */
	tempDir?: string;
	/** The home folder: `~` in paths, and where the user's git settings are. Default `os.homedir()`. */
	home?: string;
}

/** A Workspace on this machine. Its `processes` can also kill every process its calls left running. */
export interface LocalWorkspace extends Workspace {
	readonly processes: LocalProcesses;
}

/**
 * The Workspace of this machine, working in `cwd` (made absolute). Files are read with the fast local
 * calls the search tools were tuned on, processes run as leaders of their own process group and are
 * killed with everything they started, and `find` walks the folders itself (`localGlob`). `killGraceMs`
 * and `drainMs` tune the processes (see `createLocalBashOperations`).
 */
export function createLocalWorkspace(cwd: string, options: LocalWorkspaceOptions = {}): LocalWorkspace {
	if (typeof cwd !== "string" || cwd === "")
		throw new Error("createLocalWorkspace: `cwd` must be a folder path (got an empty or missing value).");
	const absolute = resolve(cwd);
	const home = options.home ?? localHome();
	const gitUser = gitUserOf({ home, isLocal: true });
	return {
		cwd: absolute,
		home,
		tempDir: options.tempDir ?? tmpdir(),
		label: "local",
		isLocal: true,
		fs: localFileSystem,
		processes: createLocalProcesses(options),
		resolvePath: (path) => resolveLocalPath(absolute, home, path),
		glob: (pattern, globCwd, signal) => localGlob(pattern, globCwd, signal, gitUser),
	};
}
