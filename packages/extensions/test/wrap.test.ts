import type { AgentToolResult } from "@gantry/agent";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	createToolDefinitionFromAgentTool,
	defineTool,
	ExtensionRunner,
	type ExtensionToolContext,
	wrapToolDefinition,
} from "../src/index.js";

const greetSchema = Type.Object({ name: Type.String() });

function greetDefinition(seenContexts: (ExtensionToolContext | undefined)[] = []) {
	return defineTool({
		name: "greet",
		label: "Greet",
		description: "Greets someone",
		parameters: greetSchema,
		outputSchema: Type.Object({ greeting: Type.String() }),
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		prepareArguments: (raw) => (typeof raw === "string" ? { name: raw } : raw),
		executionMode: "sequential",
		exposure: "codemode",
		async execute(toolCallId, params, _signal, onUpdate, ctx) {
			seenContexts.push(ctx);
			onUpdate?.({ content: [{ type: "text", text: "working" }] });
			return {
				content: [{ type: "text", text: `Hello ${params.name} (${toolCallId})` }],
				structuredContent: { greeting: `Hello ${params.name}` },
			};
		},
	});
}

describe("wrapToolDefinition", () => {
	it("carries name, label, description, parameters, outputSchema, constrainedSampling, prepareArguments, executionMode", () => {
		const definition = greetDefinition();
		const tool = wrapToolDefinition(definition);
		expect(tool).toMatchObject({
			name: "greet",
			label: "Greet",
			description: "Greets someone",
			parameters: definition.parameters,
			outputSchema: definition.outputSchema,
			constrainedSampling: { type: "json_schema", strict: "prefer" },
			executionMode: "sequential",
		});
		expect(tool.prepareArguments?.("Ada")).toEqual({ name: "Ada" });
		expect("exposure" in tool).toBe(false);
	});

	it("calls execute with ctx undefined without a factory, and with the factory's context otherwise", async () => {
		const contexts: (ExtensionToolContext | undefined)[] = [];
		const runner = new ExtensionRunner({ cwd: "/project" });
		await wrapToolDefinition(greetDefinition(contexts)).execute("call_1", { name: "Ada" });
		await wrapToolDefinition(greetDefinition(contexts), (id, signal) => runner.createToolContext(id, signal)).execute(
			"call_2",
			{ name: "Bob" },
		);
		expect(contexts[0]).toBeUndefined();
		expect(contexts[1]?.cwd).toBe("/project");
	});
});

describe("createToolDefinitionFromAgentTool", () => {
	it("keeps every field wrapToolDefinition carries, and a round trip behaves the same", async () => {
		const original = wrapToolDefinition(greetDefinition());
		const definition = createToolDefinitionFromAgentTool(original);
		expect(definition).toMatchObject({
			name: original.name,
			label: original.label,
			description: original.description,
			parameters: original.parameters,
			outputSchema: original.outputSchema,
			constrainedSampling: original.constrainedSampling,
			prepareArguments: original.prepareArguments,
			executionMode: original.executionMode,
		});
		const roundTrip = wrapToolDefinition(definition);
		const run = async (tool: typeof original) => {
			const updates: AgentToolResult[] = [];
			const result = await tool.execute("call_9", { name: "Ada" }, undefined, (update) => updates.push(update));
			return { result, updates };
		};
		expect(await run(roundTrip)).toEqual(await run(original));
		expect(roundTrip.prepareArguments?.("Cy")).toEqual({ name: "Cy" });
	});

	it("leaves optional fields out when the tool has none", () => {
		const definition = createToolDefinitionFromAgentTool({
			name: "bare",
			label: "Bare",
			description: "d",
			parameters: Type.Object({}),
			execute: async () => ({ content: [] }),
		});
		expect(Object.keys(definition).sort()).toEqual(["description", "execute", "label", "name", "parameters"]);
	});
});
