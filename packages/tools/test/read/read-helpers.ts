// Shared by the read tool's tests: run the tool in a folder and check its structured output.
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { Value } from "@sinclair/typebox/value";
import { expect } from "vitest";
import { createReadToolDefinition } from "../../src/read/read.js";
import {
	type ReadToolDetails,
	type ReadToolInput,
	type ReadToolOptions,
	readOutputSchema,
} from "../../src/read/types.js";

/** Runs `read` created for `folder`; every successful result must match the output schema. */
export async function readIn(
	folder: string,
	input: Partial<ReadToolInput> & { path: string },
	options: ReadToolOptions = {},
	signal?: AbortSignal,
	ctx?: Partial<ExtensionToolContext>,
): Promise<AgentToolResult<ReadToolDetails>> {
	const tool = createReadToolDefinition(folder, options);
	const result = await tool.execute("call_1", input as ReadToolInput, signal, undefined, ctx as ExtensionToolContext);
	expect(Value.Check(readOutputSchema, result.structuredContent)).toBe(true);
	return result;
}

/** The text of a result's content block. */
export function text(result: AgentToolResult<ReadToolDetails>, index = 0): string {
	const block = result.content[index];
	if (block?.type !== "text") throw new Error("expected a text block");
	return block.text;
}
