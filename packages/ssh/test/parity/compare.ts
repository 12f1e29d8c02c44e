import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { createAllToolDefinitions, type Workspace } from "@gantry/tools";

/** One call of the parity table. */
export interface ParityCall {
	tool: string;
	args: Record<string, unknown>;
}

/** A tool result (or failure) with the workspace's own paths replaced, ready to compare. */
export interface Outcome {
	failed?: string;
	isError?: boolean;
	content?: unknown[];
	details?: unknown;
}

const noContext = undefined as unknown as ExtensionToolContext;
/** Details that measure time differ on every run. */
const VOLATILE = new Set(["wallTimeSeconds", "durationMs", "elapsedMs"]);

/** Runs `call` with the builtins made over `workspace`. */
export async function runCall(workspace: Workspace, call: ParityCall): Promise<Outcome> {
	const tools = createAllToolDefinitions(workspace);
	const tool = tools[call.tool as keyof typeof tools];
	try {
		const result = (await tool.execute(
			`parity-${call.tool}`,
			call.args as never,
			undefined,
			undefined,
			noContext,
		)) as AgentToolResult<unknown> & { isError?: boolean };
		return normalise(workspace, {
			isError: result.isError ?? false,
			content: result.content,
			details: result.details,
		});
	} catch (error) {
		return normalise(workspace, { failed: (error as Error).message });
	}
}

/** Replaces the workspace's cwd, temp folder and home with placeholders and drops timing details. */
function normalise(workspace: Workspace, outcome: Outcome): Outcome {
	const text = JSON.stringify(outcome, (key, value) => (VOLATILE.has(key) ? undefined : value));
	const replaced = text
		.split(workspace.tempDir)
		.join("<temp>")
		.split(workspace.cwd)
		.join("<cwd>")
		.split(workspace.home)
		.join("<home>");
	return JSON.parse(replaced) as Outcome;
}
