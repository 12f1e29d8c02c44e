/**
 * The host a session's tools act on, as extensions see it: enough to judge a path the way the builtins
 * will use it (`~`, relative paths, look-alike names and symbolic links on that host, not on this machine). A
 * `Workspace` of `@gantry/tools` (local or `@gantry/ssh`) is one; this package names only what it reads, so
 * it stays free of `@gantry/tools`.
 */
export interface ExtensionWorkspace {
	/** Absolute working folder on the host. */
	readonly cwd: string;
	/** The home folder on the host, what `~` means there. */
	readonly home: string;
	/** `true` when the host is this machine; paths then use this machine's syntax, else POSIX syntax. */
	readonly isLocal: boolean;
	/** Who and where, for people: `"local"`, `"user@host:port"`. */
	readonly label: string;
	/** A path as a model typed it turned into an absolute path on the host (`~` is `home`, relative to `cwd`). */
	resolvePath(path: string): string;
	readonly fs: {
		/** The path with every symbolic link resolved on the host; rejects with code ENOENT when it does not exist. */
		realpath(path: string): Promise<string>;
		/** The target a symbolic link holds, as written; rejects for a path that is not a link. */
		readlink(path: string): Promise<string>;
		/** What is at the path (links followed), or undefined when nothing is; rejects for other failures. */
		stat(path: string): Promise<unknown | undefined>;
		/**
		 * The entries of a folder (only `name` is read), to find the file a builtin takes a look-alike name
		 * to (a no-break space, decomposed accents). Rejects like `readdir`.
		 */
		readdir(path: string): Promise<readonly { readonly name: string }[]>;
		/**
		 * A file's bytes. Optional: the permission policy reads a repository's git config with it before a git
		 * command counts as read-only; without it, such commands ask.
		 */
		readFile?(path: string): Promise<Uint8Array>;
	};
}
