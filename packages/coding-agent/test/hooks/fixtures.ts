import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFauxModel, type FauxTurnSource } from "@gantry/ai";
import type { ExtensionUI } from "@gantry/extensions";
import { type AgentSessionOptions, createAgentSession, type HooksSettings } from "../../src/index.js";

/** The folder of the hook scripts these tests run (written to Claude Code's documented contract). */
export const SCRIPTS = fileURLToPath(new URL("./scripts/", import.meta.url));

/** The settings command that runs one of the scripts, as a user would write it. */
export function hookCommand(name: string): string {
	const path = join(SCRIPTS, name);
	return name.endsWith(".py") ? `python3 "${path}"` : `sh "${path}"`;
}

/** `{ type: "command", command }` groups for one event. */
export function on(matcher: string | undefined, ...commands: (string | { command: string; timeout: number })[]) {
	const hooks = commands.map((entry) =>
		typeof entry === "string" ? { type: "command" as const, command: entry } : { type: "command" as const, ...entry },
	);
	return matcher === undefined ? { hooks } : { matcher, hooks };
}

/** A UI that only records what the session shows the person. */
export function recordingUi(notices: string[]): ExtensionUI {
	return {
		confirm: async () => false,
		select: async () => undefined,
		notify: (message) => {
			notices.push(message);
		},
	};
}

/**
 * A session on the faux model with `hooks` as its settings' hooks; what it shows the person is recorded
 * (`notices` through its UI, `diagnostics` when `headless`).
 */
export async function startHookSession(
	cwd: string,
	hooks: HooksSettings,
	turns: FauxTurnSource[],
	{ headless, ...options }: Partial<AgentSessionOptions> & { headless?: boolean } = {},
) {
	const notices: string[] = [];
	const diagnostics: string[] = [];
	const model = createFauxModel(turns);
	const session = await createAgentSession({
		cwd,
		model,
		settings: { hooks },
		// Settings bring the session's permission policy; these tests are about the hooks, so what no hook
		// decides runs (a hook's deny and ask still hold in this mode).
		permissionMode: "bypassPermissions",
		...(headless ? {} : { ui: recordingUi(notices) }),
		...options,
	});
	session.onDiagnostic((message) => diagnostics.push(message));
	return { session, model, notices, diagnostics };
}

/** What `record.py` saw, one entry per run. */
export async function readHookLog(dir: string): Promise<HookLogEntry[]> {
	const text = await readFile(join(dir, "hook-log.jsonl"), "utf8").catch(() => "");
	return text
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as HookLogEntry);
}

export interface HookLogEntry {
	input: Record<string, unknown> & { tool_input?: Record<string, unknown> };
	cwd: string;
	claude_project_dir: string;
	gantry_project_dir: string;
	secret_seen: boolean;
}

/** Whether a process is alive (a zombie waiting for its parent counts as gone). */
export async function isAlive(pid: number): Promise<boolean> {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
	const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
	return state !== "Z" && state !== "X" && stat !== "";
}
