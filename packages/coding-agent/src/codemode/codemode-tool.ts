import type { AgentToolResult } from "@gantry/agent";
import { withoutUndefined } from "@gantry/ai";
import type { ExtensionToolContext, ToolDefinition, ToolLoadout } from "@gantry/extensions";
import type { Workspace } from "@gantry/tools";
import { type Static, Type } from "@sinclair/typebox";
import { CodingAgentError } from "../errors.js";
import { boundCallRecords, type CodemodeCallSummary } from "./call-records.js";
import { buildCodemodeDescription, codemodeBaseDescription, type DescribedTool } from "./description.js";
import {
	DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS,
	DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES,
	DEFAULT_CODEMODE_TIMEOUT_MS,
	runCodemodeScript,
} from "./sandbox.js";
import { type CodemodeCatalog, type CodemodeToolHost, createContextToolHost } from "./tool-host.js";

export const codemodeSchema = Type.Object({
	code: Type.String({
		description:
			'JavaScript, run as the body of an async function (await and return work). Optional first line: // @options: {"timeout_ms": N, "max_output_tokens": N}',
	}),
});

export type CodemodeToolInput = Static<typeof codemodeSchema>;

export interface CodemodeToolDetails {
	/**
	 * The tool calls the script made, in order: the first `NESTED_CALL_LIMITS.maxCalls`, arguments over
	 * the byte limits kept as `argumentsBytes`.
	 */
	calls: CodemodeCallSummary[];
	/** How many calls `calls` leaves out, when there were more than it keeps. */
	omittedCalls?: number;
	/** What stopped a failed script. */
	error?: string;
	/** The file with the full output, when the output went over the budget. */
	fullOutputPath?: string;
}

export interface CodemodeToolOptions {
	/**
	 * `"on"` (default): the description lists the callable tools whose exposure is `codemode`.
	 * `"only"`: it lists every callable tool, and `prepareLoadout` hides the declarations of active
	 * `direct` tools so the model reaches them only through scripts.
	 */
	mode?: "on" | "only";
	/** Run time limit of a script in ms (a script's options line may change it). Default 30,000. */
	timeoutMs?: number;
	/** Memory limit of a script's VM in bytes. Default 64 MiB. */
	memoryLimitBytes?: number;
	/** Output budget of a script in tokens (4 characters each). Default 10,000. */
	maxOutputTokens?: number;
	/** Folder for full-output files (the session temp folder); a function is read at each call. */
	tempDir: string | (() => string);
	/**
	 * The workspace `tempDir` is on and the full-output files are written through (the session passes
	 * its own, so the file is where the model's `read` and `bash` look). Default: this machine.
	 */
	workspace?: Workspace;
	/**
	 * The session's facts about each tool (exposure, output schema, namespace). Without it every
	 * tool counts as `direct` and keeps its own `outputSchema` — so `ALL_TOOLS` cannot leave out
	 * `deferred` tools.
	 */
	catalog?: CodemodeCatalog;
	/** Builds the host a call runs against. Default: `createContextToolHost(ctx, catalog)`. May throw. */
	createHost?: (ctx: ExtensionToolContext) => CodemodeToolHost;
	/** Characters the tool listing of the description may take (signatures and the names of tools left out). Default 8,000. */
	descriptionBudget?: number;
}

/**
 * The `codemode` builtin: runs the model's script in the QuickJS sandbox, calling tools through
 * `ctx.executeTool` (so validation, hooks, permissions and nested-call records apply). Exposure
 * `model-only`, inactive until named, `executionMode` unset. A failed script is an `isError` result
 * (it does not throw); the call throws only when it has no tool context. Throws a `CodingAgentError`
 * (`invalid_option`) at creation for a bad mode or a limit that is not a positive number.
 */
export function createCodemodeToolDefinition(
	options: CodemodeToolOptions,
): ToolDefinition<typeof codemodeSchema, CodemodeToolDetails> {
	const mode = options.mode ?? "on";
	if (mode !== "on" && mode !== "only") {
		throw new CodingAgentError("invalid_option", `codemode: mode must be "on" or "only" (got ${String(mode)})`);
	}
	const limits = {
		timeoutMs: positive("timeoutMs", options.timeoutMs, DEFAULT_CODEMODE_TIMEOUT_MS),
		memoryLimitBytes: positive("memoryLimitBytes", options.memoryLimitBytes, DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES),
		maxOutputTokens: positive("maxOutputTokens", options.maxOutputTokens, DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS),
	};
	const descriptionOptions = withoutUndefined({ mode, ...limits, budget: options.descriptionBudget });
	return {
		name: "codemode",
		label: "Code mode",
		description: codemodeBaseDescription(descriptionOptions),
		promptSnippet: "Run JavaScript that calls tools (loops, parallel calls, filtering results)",
		parameters: codemodeSchema,
		exposure: "model-only",
		// The sandbox itself touches nothing; every tool a script calls is checked on its own.
		annotations: { destructiveHint: false, openWorldHint: false },
		defaultActive: false,
		prepareLoadout(loadout) {
			const listed = listedTools(loadout, mode, options.catalog);
			const changes: { descriptions: Record<string, string>; hiddenDeclarations?: string[] } = {
				descriptions: { codemode: buildCodemodeDescription(listed, descriptionOptions) },
			};
			if (mode === "only") {
				changes.hiddenDeclarations = loadout.declared
					.filter((tool) => (loadout.getExposure(tool.name) ?? "direct") === "direct")
					.map((tool) => tool.name);
			}
			return changes;
		},
		async execute(_toolCallId, params, signal, _onUpdate, ctx): Promise<AgentToolResult<CodemodeToolDetails>> {
			if (!ctx) throw new Error("codemode can only run inside a session: it needs the tool context to call tools.");
			const host = options.createHost ? options.createHost(ctx) : createContextToolHost(ctx, options.catalog);
			const result = await runCodemodeScript(
				withoutUndefined({
					code: typeof params.code === "string" ? params.code : "",
					tools: host,
					...limits,
					tempDir: typeof options.tempDir === "function" ? options.tempDir() : options.tempDir,
					workspace: options.workspace,
					signal: signal ?? ctx.signal,
				}),
			);
			const bounded = boundCallRecords(result.calls);
			const details: CodemodeToolDetails = { calls: bounded.calls };
			if (bounded.omitted > 0) details.omittedCalls = bounded.omitted;
			if (result.error !== undefined) details.error = result.error;
			if (result.fullOutputPath !== undefined) details.fullOutputPath = result.fullOutputPath;
			const toolResult: AgentToolResult<CodemodeToolDetails> = {
				content: [{ type: "text", text: result.text }],
				details,
			};
			if (!result.ok) toolResult.isError = true;
			return toolResult;
		},
	};
}

/** Mode `on`: callable `codemode`-exposure tools. Mode `only`: every callable tool but `deferred` ones. */
function listedTools(loadout: ToolLoadout, mode: "on" | "only", catalog: CodemodeCatalog | undefined): DescribedTool[] {
	return loadout.callable
		.filter((tool) => {
			if (tool.name === "codemode") return false;
			const exposure = loadout.getExposure(tool.name) ?? "direct";
			if (mode === "on") return exposure === "codemode";
			return exposure !== "deferred" && exposure !== "model-only" && exposure !== "hidden";
		})
		.map((tool) => {
			const described: DescribedTool = { name: tool.name, description: tool.description, parameters: tool.parameters };
			const outputSchema = catalog?.(tool.name)?.outputSchema ?? tool.outputSchema;
			if (outputSchema !== undefined) described.outputSchema = outputSchema;
			return described;
		});
}

function positive(name: string, value: number | undefined, fallback: number): number {
	if (value === undefined) return fallback;
	if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
		throw new CodingAgentError("invalid_option", `codemode: ${name} must be a positive number (got ${String(value)})`);
	}
	return value;
}
