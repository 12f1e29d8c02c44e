import { createFauxModel } from "@gantry/ai";
import type { ExtensionAPI } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { declaredNames, echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

describe("tool_search is declared whenever deferred tools are registered", () => {
	it("without naming it: a deferred tool makes it active, and the model can find and call the tool", () =>
		withTempDir(async (cwd) => {
			const hidden = echoTool("far_away", { exposure: "deferred", description: "Echoes from far away" });
			const model = createFauxModel([
				{ toolCalls: [{ name: "tool_search", arguments: { query: "far away" } }] },
				{ toolCalls: [{ name: "far_away", arguments: { text: "found" } }] },
				{ text: "done" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				customTools: [hidden.definition],
			});
			expect(session.getActiveToolNames()).toContain("tool_search");
			await session.prompt("use the far away tool");
			expect(declaredNames(model.calls[0])).toContain("tool_search");
			expect(declaredNames(model.calls[1])).toContain("far_away");
			const results = toolResults(session.messages);
			expect(textOf(results[0])).toContain("Loaded 1 tool");
			expect(results[1]?.isError).toBe(false);
			expect(hidden.calls).toEqual(["found"]);
			await session.dispose();
		}));

	it("stays out when no deferred tool is registered (codemode-only tools do not count)", () =>
		withTempDir(async (cwd) => {
			const scripted = echoTool("scripted", { exposure: "codemode" });
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				customTools: [scripted.definition],
			});
			expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
			await session.dispose();
		}));

	it("follows deferred tools that an extension registers later and withdraws; other tools keep their places", () =>
		withTempDir(async (cwd) => {
			let api: ExtensionAPI | undefined;
			const late = echoTool("late", { exposure: "deferred" });
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				customTools: [echoTool("first").definition],
				extensions: [
					(extensionApi) => {
						api = extensionApi;
					},
				],
			});
			expect(session.getActiveToolNames()).toEqual(["first"]);
			api?.registerTool(late.definition);
			expect(session.getActiveToolNames()).toEqual(["first", "tool_search"]);
			// Asking for a set without it while a deferred tool is registered keeps it declared.
			session.setActiveToolsByName(["first"]);
			expect(session.getActiveToolNames()).toEqual(["first", "tool_search"]);
			api?.unregisterTool("late", "gone");
			expect(session.getActiveToolNames()).toEqual(["first"]);
			await session.dispose();
		}));

	it("stays when it was named, after the last deferred tool goes", () =>
		withTempDir(async (cwd) => {
			let api: ExtensionAPI | undefined;
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				tools: ["*", "tool_search"],
				extensions: [
					(extensionApi) => {
						api = extensionApi;
						extensionApi.registerTool(echoTool("late", { exposure: "deferred" }).definition);
					},
				],
			});
			expect(session.getActiveToolNames()).toEqual(["tool_search"]);
			api?.unregisterTool("late", "gone");
			expect(session.getActiveToolNames()).toEqual(["tool_search"]);
			await session.dispose();
		}));

	it("is not declared when the tool filter leaves it out", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				excludeTools: ["tool_search"],
				customTools: [echoTool("later", { exposure: "deferred" }).definition],
			});
			expect(session.getActiveToolNames()).toEqual([]);
			expect(session.getCallableToolNames()).toEqual(["later"]);
			await session.dispose();
		}));
});
