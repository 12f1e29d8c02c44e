/**
 * The `sandbox` key of a settings file, field for field as Claude Code reads it (plus Gantry's
 * `failIfUnavailable`). Paths may start with `~/`, `./` (the working folder) or `/`.
 */
export interface SandboxSettings {
	/** Run shell commands (and MCP stdio servers started with `sandbox: true`) in the OS sandbox. Default false. */
	enabled?: boolean;
	/** A sandboxed bash call runs without a permission question (deny rules still block). Default true. */
	autoAllowBashIfSandboxed?: boolean;
	/** Commands (prefix rules like `docker:*` or `git push`) that run outside the sandbox, asked about as usual. */
	excludedCommands?: string[];
	/** Whether the model may ask to run a command outside the sandbox. Default true, as in Claude Code. */
	allowUnsandboxedCommands?: boolean;
	/**
	 * Gantry's own: when the sandbox cannot start (no bubblewrap, no user namespaces), refuse shell commands
	 * instead of running them unsandboxed. Default true (fail closed).
	 */
	failIfUnavailable?: boolean;
	filesystem?: {
		/** Extra folders or files that may be written (the working folder and the session's temp folder always may). */
		allowWrite?: string[];
		/** Never written, even inside an allowed folder. */
		denyWrite?: string[];
		/** Never read. */
		denyRead?: string[];
		/** Read again inside a `denyRead` folder. */
		allowRead?: string[];
	};
	network?: {
		/** Hosts that may be reached (`example.com`, `*.npmjs.org`); none when absent. */
		allowedDomains?: string[];
		/** Hosts never reached, even when an allowed pattern covers them. */
		deniedDomains?: string[];
		/** Whether commands may listen on loopback ports. Default false. */
		allowLocalBinding?: boolean;
		/** Unix socket paths commands may connect to. */
		allowUnixSockets?: string[];
	};
}
