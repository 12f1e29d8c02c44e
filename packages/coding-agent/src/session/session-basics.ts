import { createHash, randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { AgentMessage, AgentStreamOptions } from "@gantry/agent";
import type { AssistantMessage } from "@gantry/ai";
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
