import { createHash, randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { AgentMessage, AgentState, AgentStreamOptions, AgentTool } from "@gantry/agent";
import { type AssistantMessage, createAssistantMessage, type Tool } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { ContextFile } from "./context-files.js";
import type { AgentSessionOptions } from "./session-options.js";

export function isToolResult(message: AgentMessage): message is Extract<AgentMessage, { role: "toolResult" }> {
	return (message as { role?: string }).role === "toolResult";
}

/** The last assistant message of a conversation, if it has one. */
export function findLastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AgentMessage & { role?: string };
		if (message.role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}

/** The run's assistant message for nested calls: the last finished one, else the one streaming, else an empty one. */
export function currentAssistantMessage(state: AgentState): AssistantMessage {
	return findLastAssistant(state.messages) ?? state.streamMessage ?? createAssistantMessage(state.model);
}

/** A stable id for a transcript file (its resumed runs share the prompt cache), else a random one. */
export function sessionIdFor(sessionFile: string | undefined): string {
	if (sessionFile === undefined) return randomUUID();
	return `gantry-${createHash("sha256").update(resolve(sessionFile)).digest("hex").slice(0, 32)}`;
}

/** Request options the session adds; unset ones are left out, so a `streamFn`'s own defaults still apply. */
export function streamOptionsFor(options: AgentSessionOptions, sessionId: string): AgentStreamOptions {
	const streamOptions: AgentStreamOptions = { sessionId };
	if (options.reasoning !== undefined) streamOptions.reasoning = options.reasoning;
	if (options.idleTimeoutMs !== undefined) streamOptions.idleTimeoutMs = options.idleTimeoutMs;
	return streamOptions;
}

/** What `createAgentSession` prepared for the session besides its options. */
export interface SessionEnvironment {
	workspace: Workspace;
	tempDir: string;
	contextFiles?: readonly ContextFile[];
	hooks?: SessionHooks;
	/** The workspace checkpoints record: the one given, not a sandbox around it. Default `workspace`. */
	checkpointWorkspace?: Workspace;
}

/** What a model request declares of each tool. */
export function declaredToolsOf(tools: readonly AgentTool[]): Tool[] {
	return tools.map((tool) => {
		const declared: Tool = { name: tool.name, description: tool.description, parameters: tool.parameters };
		if (tool.constrainedSampling !== undefined) declared.constrainedSampling = tool.constrainedSampling;
		return declared;
	});
}

/**
 * The end of a session's hold on its workspace: every process its commands started dies (background ones
 * included), its temp folder goes, and a remote workspace's connection is closed unless `keepOpen` (no handle
 * keeps Node alive). Failures are reported, never thrown.
 */
export async function releaseWorkspace(
	workspace: Workspace,
	tempDir: string,
	keepOpen: boolean,
	report: (message: string, error: unknown) => void,
): Promise<void> {
	await workspace.processes.killAll?.();
	await workspace.fs
		.remove(tempDir)
		.catch((error: unknown) => report(`could not remove the session's temp folder ${tempDir}`, error));
	if (!keepOpen && workspace.close !== undefined) {
		await workspace.close().catch((error: unknown) => report("could not close the workspace", error));
	}
}
