import type { Workspace } from "@gantry/tools";

/** Whether the OS sandbox is in force, and why not when it is not. */
export interface SandboxStatus {
	active: boolean;
	/** Why the sandbox is not active (no bubblewrap, no user namespaces, not enabled, …). */
	reason?: string;
}

/**
 * A local workspace whose processes run in the OS sandbox and whose file operations are held to the same
 * filesystem lists. Made by `createSandboxedWorkspace(inner, settings)`.
 */
export interface SandboxedWorkspace extends Workspace {
	readonly sandbox: SandboxStatus;
	/** Stops the sandbox's helpers (network proxies) and removes what it left behind. */
	close(): Promise<void>;
}
