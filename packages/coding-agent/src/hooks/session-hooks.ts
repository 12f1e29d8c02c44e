import type { AgentTool } from "@gantry/agent";
import { errorText } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";
import type { HookEventName, HooksSettings } from "../settings/types.js";
import { readHookOutcome } from "./hook-output.js";
import { findHookShell, type HookProcessResult, hookInputPath, runHookProcess } from "./hook-process.js";
import { type CombinedHookOutcome, combineHookOutcomes, NO_HOOK_OUTCOME } from "./hook-results.js";
import { type CompiledHook, type CompiledHooks, compileHooks } from "./hooks-config.js";

/** What the hooks need from their session (the session attaches itself once made). */
export interface SessionHooksHost {
	/** The session's temp folder (hook input files). */
	tempDir: string;
	sessionId: string;
	/** The transcript file, when the session has one. */
	transcriptPath?: string;
	/** The permission mode hooks are told (`permission_mode`). */
	getPermissionMode(): string;
	/** The tool a call will run, to check a PreToolUse hook's `updatedInput` against its parameters. */
	getTool(name: string): AgentTool | undefined;
	/** Shows a hook's message or non-blocking error to the user. May throw (ignored). */
	notify(message: string, level: "info" | "warning"): void;
}

/**
 * A session's command hooks (`settings.hooks`): picks the hooks of an event whose matcher matches, runs
 * them in parallel through the session's workspace with Claude Code's JSON on stdin, and combines their
 * answers. Also holds what the hooks left for later: context for the next prompt, a request to stop.
 */
export class SessionHooks {
	readonly #compiled: CompiledHooks;
	readonly #workspace: Workspace;
	#host: SessionHooksHost | undefined;
	#abort = new AbortController();
	#shell: Promise<string> | undefined;
	#runs = 0;
	#aborts = 0;
	#pendingContext: string[] = [];
	#stopRequest: string | undefined;

	/**
	 * Hooks that run through `workspace` (so on its host, in its cwd, with its secret-free environment).
	 * Throws `invalid_option` for hooks settings that cannot run (see `compileHooks`).
	 */
	constructor(settings: HooksSettings | undefined, workspace: Workspace) {
		this.#compiled = compileHooks(settings);
		this.#workspace = workspace;
	}

	/** Connects the session; no hook runs before. */
	attach(host: SessionHooksHost): void {
		this.#host = host;
	}

	/** Whether any hook is attached to a tool event (then the session installs `createToolHooksExtension`). */
	get hasToolHooks(): boolean {
		return this.has("PreToolUse") || this.has("PostToolUse") || this.has("PostToolUseFailure");
	}

	/** The tool a call will run (see `SessionHooksHost.getTool`). */
	getTool(name: string): AgentTool | undefined {
		return this.#host?.getTool(name);
	}

	/** Whether any hook is attached to `event`. */
	has(event: HookEventName): boolean {
		return this.#compiled.has(event);
	}

	/**
	 * Runs the hooks of `event` whose matcher matches one of `names` (tool events: the tool's names;
	 * SessionStart: the source; SessionEnd: the reason; the others match every group), each identical
	 * command once, with `fields` added to the common input. Notices go to the user. Never rejects.
	 */
	async run(
		event: HookEventName,
		names: readonly string[],
		fields: Record<string, unknown>,
	): Promise<CombinedHookOutcome> {
		const hooks = this.#select(event, names);
		const host = this.#host;
		if (hooks.length === 0 || host === undefined) return NO_HOOK_OUTCOME;
		const workspace = this.#workspace;
		const input = JSON.stringify({
			session_id: host.sessionId,
			transcript_path: host.transcriptPath ?? "",
			cwd: workspace.cwd,
			permission_mode: host.getPermissionMode(),
			hook_event_name: event,
			...fields,
		});
		this.#shell ??= findHookShell(workspace);
		const shell = await this.#shell;
		const signal = this.#abort.signal;
		// One input file for every hook of the event, on the workspace's host, gone once they all ended.
		const inputPath = hookInputPath(workspace, host.tempDir, ++this.#runs);
		const written = await workspace.fs.writeFileAtomic(inputPath, new TextEncoder().encode(input)).then(
			() => undefined,
			(error: unknown) => errorText(error),
		);
		const outcomes = await Promise.all(
			hooks.map(async (hook) => {
				const run =
					written === undefined
						? await runHookProcess({
								workspace,
								command: hook.command,
								inputPath,
								env: { CLAUDE_PROJECT_DIR: workspace.cwd, GANTRY_PROJECT_DIR: workspace.cwd },
								timeoutMs: hook.timeoutSeconds * 1000,
								signal,
								shell,
							})
						: notStarted(`its input could not be written to ${inputPath}: ${written}`);
				return readHookOutcome(event, hook.command, hook.timeoutSeconds, run);
			}),
		);
		await workspace.fs.unlink(inputPath).catch(() => undefined);
		const combined = combineHookOutcomes(outcomes.filter((outcome) => outcome !== undefined));
		for (const notice of combined.notices) this.tell(notice.message, notice.level);
		return combined;
	}

	/** Shows a message to the user (the session's UI, else its diagnostics). Never throws. */
	tell(message: string, level: "info" | "warning"): void {
		try {
			this.#host?.notify(message, level);
		} catch {
			// A failing UI must not fail the call the hook ran for.
		}
	}

	/** Kills the hooks running now (the session aborted); later runs start afresh. */
	abort(): void {
		this.#aborts++;
		this.#abort.abort();
		this.#abort = new AbortController();
	}

	/** How many times `abort` was called: a prompt compares it to tell whether it was aborted meanwhile. */
	get aborts(): number {
		return this.#aborts;
	}

	/** Keeps context (SessionStart's) for the next prompt. */
	addContext(text: string): void {
		this.#pendingContext.push(text);
	}

	/** The context waiting for the next prompt, and forgets it. */
	takeContext(): string[] {
		const taken = this.#pendingContext;
		this.#pendingContext = [];
		return taken;
	}

	/** A hook said `continue: false`: the run stops after the current turn. */
	requestStop(reason: string): void {
		this.#stopRequest ??= reason;
	}

	/** The pending stop request (its reason, maybe ""), if any. */
	get stopRequest(): string | undefined {
		return this.#stopRequest;
	}

	/** Forgets the stop request (a new prompt starts). */
	clearStopRequest(): void {
		this.#stopRequest = undefined;
	}

	#select(event: HookEventName, names: readonly string[]): CompiledHook[] {
		const selected: CompiledHook[] = [];
		const seen = new Set<string>();
		// Claude Code ignores the matcher of the events that have nothing to match.
		const everyGroup = event === "UserPromptSubmit" || event === "Stop";
		for (const group of this.#compiled.get(event) ?? []) {
			if (!everyGroup && !group.matches(names)) continue;
			for (const hook of group.hooks) {
				if (seen.has(hook.command)) continue;
				seen.add(hook.command);
				selected.push(hook);
			}
		}
		return selected;
	}
}

function notStarted(reason: string): HookProcessResult {
	return { exitCode: null, stdout: "", stderr: "", timedOut: false, aborted: false, startError: reason };
}
