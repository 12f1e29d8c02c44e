/**
 * The host the builtin tools act on: its files, its processes and its paths. `createLocalWorkspace(cwd)`
 * is this machine; `@gantry/ssh` gives one on another host. The builtins reach the outside world only
 * through a `Workspace`, so a tool cannot tell (and the model cannot tell) where it runs.
 *
 * Contract rules every implementation keeps:
 * - Paths are absolute paths on the workspace's host, in that host's syntax (`path.posix` for a remote
 *   Unix host). `resolvePath` turns what a model typed into one.
 * - Failures reject with an `Error` whose `code` is the POSIX name (`ENOENT`, `EACCES`, `EISDIR`,
 *   `ENOTDIR`, `EEXIST`, …) where there is one, so the tools can say what went wrong in one way.
 * - Abort: every operation that takes a `signal` rejects with `Error("Operation aborted")` once it fires,
 *   and leaves nothing running on the host.
 *
 * This file is the contract between `@gantry/tools` and other implementations (`@gantry/ssh`): change it
 * only by adding optional members.
 *
 * Changes since the first version (all optional, so every implementation stays valid):
 * - `WorkspaceProcesses.which` takes an optional `{ path }`: the PATH value to search instead of the
 *   host's (the powershell tool passes its `env.PATH`). An implementation may ignore it.
 * - `WorkspaceProcesses.killAll?()`: kills every process its `spawn` calls started that still runs,
 *   background ones included; the session calls it from `dispose()`.
 * - `WorkspaceSpawnOptions.unsandboxed?`: asks a sandboxed workspace (`@gantry/sandbox`) to run the
 *   process outside its sandbox; every other implementation ignores it.
 */

/** The kind of thing at a path. */
export type WorkspaceFileKind = "file" | "directory" | "other";

/** What `stat` says about a path (links followed). */
export interface WorkspaceStat {
	kind: WorkspaceFileKind;
	/** Size in bytes. */
	size: number;
	/** Permission bits, set-id bits included (`mode & 0o7777`). */
	mode: number;
	/** Owner and group ids, where the host has them. */
	uid?: number;
	gid?: number;
	/** Hard links to the file, where the host reports it. */
	nlink?: number;
	/** Last modification, milliseconds since the epoch. */
	mtimeMs?: number;
}

/** What `lstat` says: like `WorkspaceStat`, but a symbolic link is described itself. */
export interface WorkspaceLinkStat extends Omit<WorkspaceStat, "kind"> {
	kind: WorkspaceFileKind | "symlink";
}

/** One entry of a folder listing. A symbolic link is reported as `"symlink"`, not followed. */
export interface WorkspaceDirEntry {
	name: string;
	kind: WorkspaceFileKind | "symlink";
}

/** An open file, read at explicit positions. */
export interface WorkspaceFileHandle {
	/** Reads up to `length` bytes at file `position` into `buffer` at `offset`; resolves to the count (0 at the end). */
	read(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
	/** Releases the file. Called once, after the last read. */
	close(): Promise<void>;
}

/** The workspace's file system. */
export interface WorkspaceFileSystem {
	/** What is at `path`, links followed; `undefined` when nothing is there (ENOENT, ENOTDIR). Rejects for other failures. */
	stat(path: string): Promise<WorkspaceStat | undefined>;
	/** Like `stat`, but a symbolic link is described itself (`kind: "symlink"`), not followed. */
	lstat(path: string): Promise<WorkspaceLinkStat | undefined>;
	/** The target a symbolic link holds, as written in the link. Rejects with EINVAL for a non-link. */
	readlink(path: string): Promise<string>;
	/** The entries of a folder, in any order. Rejects like `readdir` (ENOENT, ENOTDIR, EACCES). */
	readdir(path: string): Promise<WorkspaceDirEntry[]>;
	/** Opens a file for positional reads. Rejects like `open`. */
	open(path: string): Promise<WorkspaceFileHandle>;
	/** The whole file. Rejects with `EISDIR` for a folder, `ENOENT` when missing. */
	readFile(path: string): Promise<Uint8Array>;
	/**
	 * Replaces (or creates) the file so that readers and crashes only ever see the old or the new content
	 * (temporary file in the same folder + rename). An existing file keeps its owner and mode (owner
	 * first, then mode, so set-id bits survive); a symbolic link is followed. Rejects with `EACCES` when
	 * the file may not be written. The parent folder must exist.
	 */
	writeFileAtomic(path: string, data: Uint8Array): Promise<void>;
	/** Creates a folder and its missing parents; resolves when it exists already. */
	mkdir(path: string): Promise<void>;
	/** Resolves when `path` exists and may be read (`"read"`) or read and written (`"write"`); rejects with ENOENT/EACCES. */
	access(path: string, mode: "read" | "write"): Promise<void>;
	/** The path with every symbolic link resolved. Rejects with ENOENT when it does not exist. */
	realpath(path: string): Promise<string>;
	/** Removes a file (not a folder); resolves when it is already gone. */
	unlink(path: string): Promise<void>;
	/** Removes a file or a whole folder tree; resolves when it is already gone (the session's temp folder). */
	remove(path: string): Promise<void>;
	/**
	 * Creates (or truncates) a file for sequential writes: spill files and full-output files. Parent
	 * folders must exist.
	 */
	createWriteStream(path: string): Promise<WorkspaceWriteHandle>;
}

/** A file open for sequential writes. */
export interface WorkspaceWriteHandle {
	/** Appends `data`; resolves once it was handed to the host. */
	write(data: Uint8Array): Promise<void>;
	/** Flushes and closes. Called once. */
	close(): Promise<void>;
}

/** Options of one `spawn`. */
export interface WorkspaceSpawnOptions {
	/** Working folder of the process (absolute, on the workspace's host). */
	cwd: string;
	/**
	 * Variables set on top of the host's environment (a local workspace starts from this process's
	 * environment without its secrets: see `toolProcessEnvironment`).
	 */
	env?: Record<string, string>;
	/**
	 * Run this process outside the workspace's OS sandbox: the bash tool's `dangerouslyDisableSandbox`,
	 * after the permission policy asked. A sandboxed workspace honours it only when its settings allow
	 * unsandboxed commands (`sandbox.allowUnsandboxedCommands`), and otherwise runs the process sandboxed;
	 * a workspace without a sandbox ignores it. Default false.
	 */
	unsandboxed?: boolean;
	/**
	 * Each chunk of standard output. Must not throw. When it returns a promise, the implementation stops
	 * reading until it settles (flow control).
	 */
	onStdout?: (data: Buffer) => Promise<void> | undefined;
	/** Each chunk of standard error, same rules. When only `onStdout` is given, stderr is dropped. */
	onStderr?: (data: Buffer) => Promise<void> | undefined;
	/**
	 * Kills the whole process tree the command started (its own process group: SIGTERM, then SIGKILL after
	 * a grace period) and settles only once it is gone.
	 */
	signal?: AbortSignal;
	/**
	 * Files the process finds open for reading as file descriptors 3, 4, … in this order (an OS sandbox hands
	 * bubblewrap its seccomp filter this way, without a shell to open it). Honoured only by processes whose
	 * `inheritsFiles` is true (the local workspace's); give none to others. Default none.
	 */
	inheritedFiles?: readonly string[];
}

/** How a process ended. */
export interface WorkspaceExitStatus {
	/** The exit code; null when the process was ended by a signal. */
	exitCode: number | null;
	/** The signal that ended the process, e.g. `"SIGKILL"`. */
	signal?: string;
}

/** The workspace's processes. Standard input is always closed (a command waiting for input sees end of file). */
export interface WorkspaceProcesses {
	/**
	 * Runs `file` with `args` (no shell) as the leader of a new process group. Resolves when the process
	 * exited, its output was read and whatever it left running in the background (`cmd &`, `setsid`) was
	 * killed; rejects (with a message saying what to fix, `code` `ENOENT` for a missing program) when it
	 * cannot start.
	 */
	spawn(file: string, args: readonly string[], options: WorkspaceSpawnOptions): Promise<WorkspaceExitStatus>;
	/**
	 * The absolute path of the program `name` on the host's PATH (or on `options.path`, a PATH value, when
	 * given and the implementation supports it), or undefined.
	 */
	which(name: string, options?: { path?: string }): Promise<string | undefined>;
	/** Optional: `spawn` honours `inheritedFiles`. Absent or false: it must be given none. */
	readonly inheritsFiles?: boolean;
	/**
	 * Optional: kills every process a `spawn` of this object started that still runs, those a finished
	 * command left in the background included. `AgentSession.dispose()` calls it. Never rejects.
	 */
	killAll?(): Promise<void>;
}

/** The host the tools act on. */
export interface Workspace {
	/** Absolute working folder on that host. */
	readonly cwd: string;
	/** The home folder, for `~`. */
	readonly home: string;
	/** Folder on that host for full-output and spill files. Exists. */
	readonly tempDir: string;
	/**
	 * Who and where, for people and prompts: `"local"` for this machine, `"user@host:port"` for SSH.
	 * Tool frames and the system prompt name it when it is not local.
	 */
	readonly label: string;
	/** `true` when the tools act on this machine (the rg engine and fast paths may then run in-process). */
	readonly isLocal: boolean;
	readonly fs: WorkspaceFileSystem;
	readonly processes: WorkspaceProcesses;
	/**
	 * Turns a path a model typed into an absolute path on the host: `~` and `~/…` are the home folder, a
	 * relative path is relative to `cwd`. Pure (no I/O); `@` mentions and look-alike names are the tools'
	 * business.
	 */
	resolvePath(path: string): string;
	/**
	 * Optional fast path for `find`: the files under `cwd` whose path relative to it matches `pattern`
	 * (glob syntax; a pattern without `/` matches names at any depth), relative with `/`, any order,
	 * hidden files included, `.git` and `node_modules` and whatever .gitignore files ignore left out.
	 * Without it, find walks `fs` itself.
	 */
	glob?(pattern: string, cwd: string, signal: AbortSignal | undefined): Promise<string[]>;
	/**
	 * Optional: releases what the workspace holds (an SSH connection, a sandbox's helpers). Called once by
	 * its owner — `AgentSession.dispose()` calls it, after `processes.killAll`, unless `keepWorkspaceOpen`.
	 * Should not reject; a session reports a rejection and goes on.
	 */
	close?(): Promise<void>;
}
