import { createFauxModel } from "@gantry/ai";
import type { ExtensionAPI } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

/** A session whose only tools come from one extension; `api` is that extension's API. */
async function sessionWithExtension(cwd: string, script: Parameters<typeof createFauxModel>[0] = []) {
	let api: ExtensionAPI | undefined;
	const model = createFauxModel(script);
	const session = await createAgentSession({
		cwd,
		model,
		noTools: "all",
		toolExecution: "sequential",
		extensions: [
			(extensionApi) => {
				api = extensionApi;
				for (const name of ["alpha", "beta", "gamma"]) extensionApi.registerTool(echoTool(name).definition);
			},
		],
	});
	if (api === undefined) throw new Error("the extension did not run");
	return { session, api, model };
}

describe("tool sources that change", () => {
	it("keeps the active order through unregister, register again and replace", () =>
		withTempDir(async (cwd) => {
			const { session, api } = await sessionWithExtension(cwd);
			expect(session.getActiveToolNames()).toEqual(["alpha", "beta", "gamma"]);

			expect(api.unregisterTool("beta", "the server went away")).toBe(true);
			expect(session.getActiveToolNames()).toEqual(["alpha", "gamma"]);
			expect(session.getDeclaredTools().map((tool) => tool.name)).toEqual(["alpha", "gamma"]);
			expect(session.getAllTools().map((tool) => tool.name)).toEqual(["alpha", "gamma"]);
			expect(api.getActiveTools()).toEqual(["alpha", "gamma"]);

			api.registerTool(echoTool("beta").definition);
			expect(session.getActiveToolNames()).toEqual(["alpha", "beta", "gamma"]);

			api.registerTool(
				echoTool("alpha", { description: "Alpha, version two", annotations: { destructiveHint: true } }).definition,
			);
			expect(session.getActiveToolNames()).toEqual(["alpha", "beta", "gamma"]);
			expect(session.getDeclaredTools()[0]?.description).toBe("Alpha, version two");
			expect(api.getToolInfo("alpha")?.annotations).toEqual({ destructiveHint: true });
			expect(session.systemPrompt).toBe(session.agent.state.systemPrompt);
			await session.dispose();
		}));

	it("leaves a tool that was inactive when it was withdrawn inactive when it returns", () =>
		withTempDir(async (cwd) => {
			const { session, api } = await sessionWithExtension(cwd);
			session.setActiveToolsByName(["alpha", "gamma"]);
			api.unregisterTool("beta");
			api.registerTool(echoTool("beta").definition);
			expect(session.getActiveToolNames()).toEqual(["alpha", "gamma"]);
			await session.dispose();
		}));

	it("answers a call to a tool withdrawn after the request declared it, and runs the replaced version of another", () =>
		withTempDir(async (cwd) => {
			const { session, api, model } = await sessionWithExtension(cwd, [
				{
					toolCalls: [
						{ name: "alpha", arguments: { text: "first" } },
						{ name: "beta", arguments: { text: "second" } },
						{ name: "gamma", arguments: { text: "third" } },
					],
				},
				{ text: "done" },
			]);
			const replacement = echoTool("gamma", { description: "new gamma" });
			api.on("tool_execution_end", (event) => {
				if (event.toolName !== "alpha") return;
				api.unregisterTool("beta", "the MCP server beta disconnected");
				api.registerTool(replacement.definition);
			});
			await session.prompt("go");
			expect(model.calls[0]?.tools?.map((tool) => tool.name)).toEqual(["alpha", "beta", "gamma"]);
			const [alpha, beta, gamma] = toolResults(session.messages);
			expect(alpha?.isError).toBe(false);
			expect(beta?.isError).toBe(true);
			expect(textOf(beta)).toBe("Tool beta is no longer available: the MCP server beta disconnected");
			expect(gamma?.isError).toBe(false);
			expect(replacement.calls).toEqual(["third"]);
			expect(model.calls[1]?.tools?.map((tool) => tool.name)).toEqual(["alpha", "gamma"]);
			await session.dispose();
		}));

	it("names the extension when a tool is withdrawn without a reason, also for nested calls", () =>
		withTempDir(async (cwd) => {
			const { session, api } = await sessionWithExtension(cwd);
			api.unregisterTool("beta");
			const resolved = session.agent.options.resolveTool?.("beta", undefined);
			expect(resolved).toBe("Tool beta is no longer available: it was withdrawn by <inline>");
			const outcome = await new Promise<unknown>((resolve) => {
				api.registerTool({
					...echoTool("caller").definition,
					execute: async (_id, _params, _signal, _onUpdate, ctx) => {
						resolve(await ctx!.executeTool("beta", { text: "x" }));
						return { content: [{ type: "text", text: "ok" }] };
					},
				});
				void session.agent.state.tools
					.find((tool) => tool.name === "caller")
					?.execute("call_1", { text: "x" }, undefined, undefined);
			});
			expect(textOf((outcome as { result: { content: { type: string; text?: string }[] } }).result)).toBe(
				"Tool beta is no longer available: it was withdrawn by <inline>",
			);
			await session.dispose();
		}));
});
