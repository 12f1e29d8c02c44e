import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool, AgentToolCallOutcome, AgentToolResult } from "@gantry/agent";
import type { ToolExposure, ToolNamespace } from "@gantry/extensions";
import { type TSchema, Type } from "@sinclair/typebox";
import type { CodemodeToolHost, CodemodeToolInfo } from "../../src/codemode/index.js";

/** A registered test tool: a real AgentTool plus what the session would know about it. */
export interface TestTool {
	tool: AgentTool;
	exposure?: ToolExposure;
	namespace?: ToolNamespace;
}

function textResult(text: string, extra: Partial<AgentToolResult> = {}): AgentToolResult {
	return { content: [{ type: "text", text }], ...extra };
}

/** Makes a small real tool. */
export function makeTool(
	name: string,
	description: string,
	parameters: TSchema,
	execute: (params: Record<string, unknown>, signal?: AbortSignal) => Promise<AgentToolResult>,
	outputSchema?: TSchema,
): AgentTool {
	const tool: AgentTool = {
		name,
		label: name,
		description,
		parameters,
		execute: (_id, params, signal) => execute(params as Record<string, unknown>, signal),
	};
	if (outputSchema) tool.outputSchema = outputSchema;
	return tool;
}

/**
 * Runs tool calls the way a session's nested-call runner does in spirit: execute the real tool and
 * turn a throw into an error outcome. Records every call it ran.
 */
export function createTestHost(tools: TestTool[]): CodemodeToolHost & { ran: { name: string; args: unknown }[] } {
	const ran: { name: string; args: unknown }[] = [];
	let counter = 0;
	return {
		ran,
		list: (): CodemodeToolInfo[] =>
			tools.map(({ tool, exposure, namespace }) => {
				const info: CodemodeToolInfo = {
					name: tool.name,
					description: tool.description,
					parameters: tool.parameters,
					exposure: exposure ?? "direct",
				};
				if (tool.outputSchema) info.outputSchema = tool.outputSchema;
				if (namespace) info.namespace = namespace;
				return info;
			}),
		async call(name, args, signal): Promise<AgentToolCallOutcome> {
			const toolCall = {
				type: "toolCall" as const,
				id: `call/${++counter}`,
				name,
				arguments: (args ?? {}) as Record<string, unknown>,
			};
			const entry = tools.find((candidate) => candidate.tool.name === name);
			if (!entry) return { toolCall, result: textResult(`Tool ${name} not found`), isError: true };
			ran.push({ name, args });
			const started = performance.now();
			try {
				const result = await entry.tool.execute(toolCall.id, args, signal);
				return { toolCall, result, isError: result.isError === true, durationMs: performance.now() - started };
			} catch (error) {
				return { toolCall, result: textResult((error as Error).message), isError: true };
			}
		},
	};
}

/** Resolves when `signal` aborts, for tools that wait forever. */
function untilAborted(signal?: AbortSignal): Promise<never> {
	return new Promise((_resolve, reject) => {
		signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
	});
}

/** Two tools that each wait until the other has started: they finish only when run at the same time. */
function makeBarrierPair(): [AgentTool, AgentTool] {
	const started = new Set<string>();
	const waiters: (() => void)[] = [];
	const make = (name: string, other: string) =>
		makeTool(name, `Waits until ${other} has started too.`, Type.Object({}), async (_params, signal) => {
			started.add(name);
			for (const wake of waiters.splice(0)) wake();
			while (!started.has(other)) {
				await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), untilAborted(signal)]);
			}
			return textResult(`${name} saw ${other}`);
		});
	return [make("meet_left", "meet_right"), make("meet_right", "meet_left")];
}

/** The standard tool set of the codemode tests. */
export function standardTools(): TestTool[] {
	const [left, right] = makeBarrierPair();
	return [
		{
			tool: makeTool("echo", "Echo the given text back.", Type.Object({ text: Type.String() }), async (params) =>
				textResult(String(params.text)),
			),
		},
		{
			tool: makeTool(
				"add",
				"Add two numbers.",
				Type.Object({ a: Type.Number({ description: "First addend" }), b: Type.Number() }),
				async (params) => {
					const sum = Number(params.a) + Number(params.b);
					return textResult(`the sum is ${sum}`, { structuredContent: { sum } });
				},
				Type.Object({ sum: Type.Number() }),
			),
			exposure: "codemode",
		},
		{
			tool: makeTool("explode", "Always fails.", Type.Object({}), async () => {
				throw new Error("disk on fire");
			}),
			exposure: "codemode",
		},
		{
			tool: makeTool(
				"lint",
				"Lint a file; reports problems as structured data even when it fails.",
				Type.Object({ path: Type.String() }),
				async () => textResult("2 problems", { isError: true, structuredContent: { problems: 2 } }),
				Type.Object({ problems: Type.Number() }),
			),
			exposure: "codemode",
		},
		{
			tool: makeTool(
				"plain_structured",
				"Carries structured content but declares no output schema.",
				Type.Object({}),
				async () => textResult("plain text wins", { structuredContent: { hidden: true } }),
			),
		},
		{
			tool: makeTool(
				"github-search",
				"Search GitHub issues by keyword.",
				Type.Object({ query: Type.String() }),
				async (params) => textResult(`issues about ${String(params.query)}`),
			),
			exposure: "codemode",
			namespace: { name: "github", description: "GitHub" },
		},
		{
			tool: makeTool(
				"vault_read",
				"Read a secret from the vault.",
				Type.Object({ key: Type.String() }),
				async (params) => textResult(`secret ${String(params.key)}`),
			),
			exposure: "deferred",
		},
		{
			tool: makeTool("hang", "Never finishes on its own.", Type.Object({}), (_params, signal) => untilAborted(signal)),
			exposure: "codemode",
		},
		{ tool: left, exposure: "codemode" },
		{ tool: right, exposure: "codemode" },
		{
			tool: makeTool("codemode", "The codemode tool itself.", Type.Object({ code: Type.String() }), async () =>
				textResult("recursion"),
			),
			exposure: "model-only",
		},
	];
}

/** A temp folder per test, removed afterwards. */
export function makeTempDir(): { path: string; remove(): void } {
	const path = mkdtempSync(join(tmpdir(), "gantry-codemode-"));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
