/**
 * The demo's orchestrator tool, loaded like any `-e` extension (a `.ts` file, no build step). `inspect`
 * runs several read-only lookups at once — `grep` searches and `read`s — through `ctx.executeTool`, so
 * each one is a nested call that passes validation, the hooks and the permission policy, and is drawn
 * inside the caller's frame.
 */
import { defineTool, type ExtensionAPI, Type } from "@gantry/extensions";

const inspectParameters = Type.Object({
	searches: Type.Optional(
		Type.Array(
			Type.Object({
				pattern: Type.String({ description: "Regular expression to search for" }),
				path: Type.Optional(Type.String({ description: "Folder or file to search (default: the project)" })),
			}),
			{ description: "grep searches to run" },
		),
	),
	reads: Type.Optional(Type.Array(Type.String(), { description: "Files to read" })),
});

type Lookup = { name: "grep" | "read"; args: Record<string, unknown>; label: string };
type LookupOutcome = { label: string; isError: boolean; text: string };

function textOf(content: readonly { type: string; text?: string }[]): string {
	return content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("\n");
}

function summarize(outcome: LookupOutcome): string {
	const text = outcome.text.replace(/\n+$/, "");
	if (outcome.isError) return text.split("\n")[0] || "failed";
	if (outcome.label.startsWith("grep") && text === "No matches found") return "no matches";
	const lines = text === "" ? 0 : text.split("\n").length;
	return `${lines} line${lines === 1 ? "" : "s"}`;
}

export default function inspect(api: ExtensionAPI): void {
	api.registerTool(
		defineTool({
			name: "inspect",
			label: "Inspect",
			description:
				"Runs several read-only lookups at once — grep searches and file reads — and returns each result. Use it to check a few places in one step.",
			promptSnippet: "inspect: run several grep searches and file reads at once",
			parameters: inspectParameters,
			exposure: "model-only",
			annotations: { readOnlyHint: true },
			reachesTools: () => ["grep", "read"],
			async execute(_toolCallId, params, signal, _onUpdate, ctx) {
				if (ctx === undefined) throw new Error("inspect runs other tools, so it needs a session");
				const lookups: Lookup[] = [
					...(params.searches ?? []).map((search) => ({
						name: "grep" as const,
						args: { pattern: search.pattern, ...(search.path ? { path: search.path } : {}) },
						label: `grep ${JSON.stringify(search.pattern)}${search.path ? ` in ${search.path}` : ""}`,
					})),
					...(params.reads ?? []).map((path) => ({ name: "read" as const, args: { path }, label: `read ${path}` })),
				];
				if (lookups.length === 0) throw new Error("Give at least one search or read");
				const outcomes = await Promise.all(
					lookups.map(async (lookup): Promise<LookupOutcome> => {
						const outcome = await ctx.executeTool(lookup.name, lookup.args, { signal });
						return { label: lookup.label, isError: outcome.isError, text: textOf(outcome.result.content) };
					}),
				);
				const report = outcomes.map(
					(outcome) => `## ${outcome.label}${outcome.isError ? " (error)" : ""}\n${outcome.text}`,
				);
				return { content: [{ type: "text", text: report.join("\n\n") }], details: outcomes };
			},
			renderCall(args, theme) {
				const searches = args.searches?.length ?? 0;
				const reads = args.reads?.length ?? 0;
				const parts = [
					searches > 0 ? `${searches} search${searches === 1 ? "" : "es"}` : "",
					reads > 0 ? `${reads} read${reads === 1 ? "" : "s"}` : "",
				].filter(Boolean);
				return `${theme.bold("inspect")} ${theme.muted(parts.join(", "))}`;
			},
			renderResult(result, { isPartial }, theme) {
				if (isPartial) return theme.dim("looking…");
				const outcomes = result.details as LookupOutcome[] | undefined;
				if (!outcomes) return theme.error(textOf(result.content).split("\n")[0] ?? "");
				return outcomes
					.map((outcome) =>
						outcome.isError
							? `${theme.error("✗")} ${outcome.label}: ${theme.error(summarize(outcome))}`
							: `${theme.success("✓")} ${outcome.label}: ${theme.muted(summarize(outcome))}`,
					)
					.join("\n");
			},
		}),
	);
}
