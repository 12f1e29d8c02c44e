import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import { type Context, withoutUndefined } from "@gantry/ai";
import { defineTool, type ToolDefinition, type ToolExposure } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";

/** A temp folder per test, removed afterwards. */
export async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
	const dir = await mkdtemp(join(tmpdir(), "gantry-session-test-"));
	try {
		return await run(dir);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

const echoParameters = Type.Object({ text: Type.String() });

/** A small real tool that echoes its input (and counts its calls). */
export function echoTool(
	name: string,
	options: { exposure?: ToolExposure; defaultActive?: boolean; description?: string; delayMs?: number } & Partial<
		Pick<ToolDefinition, "annotations" | "executionMode" | "prepareLoadout" | "promptSnippet" | "promptGuidelines">
	> = {},
) {
	const calls: string[] = [];
	const running = { now: 0, max: 0 };
	const definition = defineTool({
		name,
		label: name,
		description: options.description ?? `Echoes text (${name})`,
		parameters: echoParameters,
		annotations: options.annotations ?? { readOnlyHint: true },
		...withoutUndefined({
			exposure: options.exposure,
			defaultActive: options.defaultActive,
			executionMode: options.executionMode,
			prepareLoadout: options.prepareLoadout,
			promptSnippet: options.promptSnippet,
			promptGuidelines: options.promptGuidelines,
		}),
		async execute(_id, params): Promise<AgentToolResult> {
			calls.push(params.text);
			running.now++;
			running.max = Math.max(running.max, running.now);
			try {
				if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
				return {
					content: [{ type: "text", text: `${name}:${params.text}` }],
					structuredContent: { echoed: params.text },
				};
			} finally {
				running.now--;
			}
		},
	});
	return { definition: definition as unknown as ToolDefinition, calls, running };
}

export function declaredNames(context: Context | undefined): string[] {
	return (context?.tools ?? []).map((tool) => tool.name);
}

export function toolResults(messages: unknown[]) {
	return messages.filter((message) => (message as { role?: string }).role === "toolResult") as {
		toolCallId: string;
		toolName: string;
		isError: boolean;
		content: { type: string; text?: string; data?: string; mimeType?: string }[];
		nestedCalls?: { calls: { id: string; name: string; status: string; error?: string }[]; complete: boolean };
		usage?: { input: number; output: number; totalTokens: number };
		details?: unknown;
	}[];
}

/** The text of a tool result; throws when there is no result (the test expected one that never came). */
export function textOf(result: { content: { type: string; text?: string }[] } | undefined): string {
	if (result === undefined) throw new Error("textOf: there is no tool result to read");
	return result.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
}
