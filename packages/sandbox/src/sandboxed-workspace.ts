import type { Workspace } from "@gantry/tools";

/** Whether the OS sandbox is in force, and why not when it is not. */
export interface SandboxStatus {
	active: boolean;
	/** Why the sandbox is not active (no bubblewrap, no user namespaces, not enabled, …). */
	reason?: string;
}

/** Where a command runs when it is spawned now, and why. */
export interface CommandPlacement {
	/** True: inside the OS sandbox. False: outside it (excluded, asked out, or no sandbox). */
	sandboxed: boolean;
	/** For people: `"sandboxed"`, `"excluded by sandbox.excludedCommands (docker:*)"`, … */
	reason: string;
}

/** A command line that runs a program inside a workspace's sandbox, for something that spawns it itself. */
export interface SandboxedCommand {
	/** The program to start instead (bubblewrap, or a shell that starts it). */
	command: string;
	args: string[];
	/** Variables to add to the process's environment. */
	env: Record<string, string>;
	/** Call once the process has ended (lets the sandbox clean up after its last command). Idempotent. */
	release(): void;
}

/**
 * A local workspace whose processes run in the OS sandbox and whose file operations are held to the same
 * filesystem lists. Made by `createSandboxedWorkspace(inner, settings)`.
 */
export interface SandboxedWorkspace extends Workspace {
	readonly sandbox: SandboxStatus;
	/** `sandbox.autoAllowBashIfSandboxed` as it applies (default true): sandboxed shell calls need no question. */
	readonly autoAllowBashIfSandboxed: boolean;
	/** `sandbox.allowUnsandboxedCommands` as it applies (default true): the model may ask to leave the sandbox. */
	readonly allowUnsandboxedCommands: boolean;
	/**
	 * Where a shell command (a bash or powershell call's `command`) runs when spawned now: outside the sandbox
	 * when it is not active, when `sandbox.excludedCommands` covers one of its commands, or when the call asks
	 * to leave (`unsandboxed`, honoured only with `allowUnsandboxedCommands`). The workspace's own spawns
	 * decide the same way, so what the permission policy is told is what runs. Never throws.
	 */
	placeCommand(command: string, options?: { unsandboxed?: boolean }): CommandPlacement;
	/**
	 * The command line that runs `file args` inside this sandbox for a program that starts it itself (an
	 * MCP client's stdio transport): the process is held to the same lists as the workspace's own. Rejects
	 * when the sandbox is not active, saying why.
	 */
	sandboxCommand(file: string, args: readonly string[]): Promise<SandboxedCommand>;
	/** Stops the sandbox's helpers (network proxies) and removes what it left behind. */
	close(): Promise<void>;
}

/** The workspaces `createSandboxedWorkspace` made: only those count, whatever shape another object has. */
const made = new WeakSet<object>();

/** Records a workspace `createSandboxedWorkspace` made. */
export function registerSandboxedWorkspace(workspace: SandboxedWorkspace): void {
	made.add(workspace);
}

/**
 * Whether `value` is a workspace made by `createSandboxedWorkspace` (of this copy of the package): an object
 * merely shaped like one does not count, so nothing can claim to be sandboxed to the permission policy.
 */
export function isSandboxedWorkspace(value: unknown): value is SandboxedWorkspace {
	return typeof value === "object" && value !== null && made.has(value);
}
