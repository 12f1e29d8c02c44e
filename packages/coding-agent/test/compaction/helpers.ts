import type { AgentToolResult } from "@gantry/agent";
import { type Context, createFauxModel, type FauxModel, type FauxTurnSource } from "@gantry/ai";
import { defineTool, type ToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";

/** A faux model with a small context window, so a few messages reach the threshold. */
export function smallModel(turns: FauxTurnSource[], contextWindow: number): FauxModel {
	return { ...createFauxModel(turns), contextWindow };
}

/** A tool that answers with `size` characters of text naming its call (`dump-<n>`). */
export function dumpTool(size: number): ToolDefinition {
	return defineTool({
		name: "dump",
		label: "dump",
		description: "Prints a lot",
		parameters: Type.Object({ n: Type.Number() }),
		annotations: { readOnlyHint: true },
		async execute(_id, params): Promise<AgentToolResult> {
			const head = `dump-${params.n}:`;
			return { content: [{ type: "text", text: head + "x".repeat(size - head.length) }] };
		},
	}) as unknown as ToolDefinition;
}

/** The text of each message of a request, by role (`user: …`, `assistant: …`, `toolResult: …`). */
export function requestLines(context: Context | undefined): string[] {
	return (context?.messages ?? []).map((message) => {
		const content = message.content;
		const text =
			typeof content === "string"
				? content
				: content
						.map((block) =>
							block.type === "text" ? block.text : block.type === "toolCall" ? `call ${block.name}` : `[${block.type}]`,
						)
						.join(" ");
		return `${message.role}: ${text}`;
	});
}
