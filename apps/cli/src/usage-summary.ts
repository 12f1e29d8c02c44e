import type { AgentMessage } from "@gantry/agent";
import type { AssistantMessage, Usage } from "@gantry/ai";

/** Token counts and cost summed over the assistant messages of a conversation. */
export interface UsageSummary {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: number;
}

/** Sums the usage the provider reported on every assistant message. */
export function summarizeUsage(messages: readonly AgentMessage[]): UsageSummary {
	const summary: UsageSummary = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
	for (const message of messages) {
		if ((message as { role?: string }).role !== "assistant") continue;
		const usage: Usage | undefined = (message as AssistantMessage).usage;
		if (!usage) continue;
		summary.input += usage.input;
		summary.output += usage.output;
		summary.cacheRead += usage.cacheRead;
		summary.cacheWrite += usage.cacheWrite;
		summary.totalTokens += usage.totalTokens;
		summary.cost += usage.cost?.total ?? 0;
	}
	return summary;
}

/** The last assistant message of a conversation. */
export function lastAssistantMessage(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AgentMessage & { role?: string };
		if (message.role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}

/** The text blocks of an assistant message, joined. */
export function assistantText(message: AssistantMessage): string {
	return message.content
		.filter((block) => block.type === "text")
		.map((block) => (block as { text: string }).text)
		.join("")
		.trim();
}
