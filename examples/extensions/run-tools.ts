/**
 * Run tools: a `model-only` orchestrator that runs several tool calls at once through `ctx.executeTool`,
 * so every call still passes validation, the `tool_call` / `tool_result` hooks and the permission gate.
 * `model-only` means the model can call it but other tools (and codemode scripts) cannot, so it never
 * calls itself. `reachesTools` tells the session which tools a call may reach.
 *
 *     gantry -e examples/extensions/run-tools.ts
 */
import { defineTool, type ExtensionAPI, Type } from "@gantry/extensions";

const runToolsParameters = Type.Object({
	calls: Type.Array(
		Type.Object({
			name: Type.String({ description: "Tool to run" }),
			args: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "Its arguments" })),
		}),
		{ minItems: 1, maxItems: 16 },
	),
});

export default function runTools(api: ExtensionAPI): void {
	api.registerTool(
		defineTool({
			name: "run_tools",
			label: "Run tools",
			description: "Runs several independent tool calls in parallel and reports each outcome.",
			parameters: runToolsParameters,
			exposure: "model-only",
			reachesTools: (input) => {
				const calls = (input as { calls?: { name?: unknown }[] } | undefined)?.calls;
				return Array.isArray(calls) ? calls.map((call) => String(call.name)) : [];
			},
			async execute(_toolCallId, params, signal, _onUpdate, ctx) {
				if (ctx === undefined) throw new Error("run_tools needs a session to run other tools");
				const outcomes = await Promise.all(
					params.calls.map((call) => ctx.executeTool(call.name, call.args ?? {}, { signal })),
				);
				const results = outcomes.map((outcome, index) => ({
					name: params.calls[index]?.name ?? "?",
					isError: outcome.isError,
					text: outcome.result.content
						.map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
						.join("\n"),
				}));
				const report = results.map((result, index) =>
					[`#${index + 1} ${result.name}: ${result.isError ? "error" : "ok"}`, result.text].join("\n"),
				);
				return { content: [{ type: "text", text: report.join("\n\n") }], structuredContent: { results } };
			},
		}),
	);
}
