import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { declaredNames, echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

describe("registry and the three sets", () => {
	it("places each exposure value in the right sets", () =>
		withTempDir(async (cwd) => {
			const tools = (["direct", "model-only", "codemode", "deferred", "hidden"] as const).map(
				(exposure) => echoTool(`t_${exposure.replace("-", "_")}`, { exposure }).definition,
			);
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				customTools: tools,
			});
			// tool_search joins them: a deferred tool is registered, and it is the way to reach it.
			expect(session.getActiveToolNames()).toEqual(["t_direct", "t_model_only", "tool_search"]);
			// the session's own codemode tool is model-only: never callable
			expect(session.getCallableToolNames().sort()).toEqual(["t_codemode", "t_deferred", "t_direct"]);
			const all = session.getAllTools();
			expect(all.map((tool) => `${tool.name}:${tool.exposure}:${tool.source}`)).toEqual(
				expect.arrayContaining(["t_hidden:hidden:sdk", "t_deferred:deferred:sdk", "codemode:model-only:builtin"]),
			);
			// Activating hidden or unknown names does nothing; codemode/deferred tools can be activated.
			session.setActiveToolsByName(["t_direct", "t_hidden", "nope", "t_deferred"]);
			expect(session.getActiveToolNames()).toEqual(["t_direct", "t_deferred", "tool_search"]);
			expect(session.getCallableToolNames()).not.toContain("t_model_only");
			// An inactive direct tool is no longer callable; codemode/deferred ones always are.
			session.setActiveToolsByName(["t_deferred"]);
			expect(session.getCallableToolNames().sort()).toEqual(["t_codemode", "t_deferred"]);
			await session.dispose();
		}));

	it("has read, bash, edit, write active and grep, find, ls, powershell registered but inactive", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({ cwd, model: createFauxModel([]) });
			expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
			const names = session.getAllTools().map((tool) => tool.name);
			expect(names).toEqual(expect.arrayContaining(["grep", "find", "ls", "powershell", "codemode", "tool_search"]));
			expect(session.getDeclaredTools().map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write"]);
			await session.dispose();
		}));

	it("registers apply_patch inactive, and for a model that edits with patches activates it instead of edit", () =>
		withTempDir(async (cwd) => {
			const plain = await createAgentSession({ cwd, model: createFauxModel([]) });
			expect(plain.getAllTools().map((tool) => tool.name)).toContain("apply_patch");
			expect(plain.getActiveToolNames()).not.toContain("apply_patch");
			await plain.dispose();
			const patching = await createAgentSession({
				cwd,
				model: { ...createFauxModel([]), editFormat: "apply_patch" },
			});
			expect(patching.getActiveToolNames()).toEqual(["read", "bash", "write", "apply_patch"]);
			expect(patching.getAllTools().map((tool) => tool.name)).toContain("edit");
			// Named, it is active for any model; the same for edit with a patching model.
			const named = await createAgentSession({
				cwd,
				model: { ...createFauxModel([]), editFormat: "apply_patch" },
				tools: ["*", "edit", "apply_patch"],
			});
			expect(named.getActiveToolNames()).toEqual(expect.arrayContaining(["edit", "apply_patch"]));
			await patching.dispose();
			await named.dispose();
		}));

	it("filters with allow and deny patterns, deny beating allow, and activates names the allowlist spells out", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				tools: ["re*", "ls", "codemode", "bash", "gr*"],
				excludeTools: ["bash", "grep"],
			});
			const registered = session.getAllTools().map((tool) => tool.name);
			expect(registered.sort()).toEqual(["codemode", "ls", "read"]);
			expect(session.getActiveToolNames()).toEqual(["read", "ls", "codemode"]);
			await session.dispose();
		}));

	it("noTools builtin keeps session tools; all registers none of them", () =>
		withTempDir(async (cwd) => {
			const custom = echoTool("mine").definition;
			const builtinOff = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				customTools: [custom],
			});
			expect(
				builtinOff
					.getAllTools()
					.map((tool) => tool.name)
					.sort(),
			).toEqual(["codemode", "mine", "tool_search"]);
			const allOff = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "all",
				customTools: [custom],
			});
			expect(allOff.getAllTools().map((tool) => tool.name)).toEqual(["mine"]);
			await builtinOff.dispose();
			await allOff.dispose();
		}));

	it("custom tools replace same-named builtins and keep their place", () =>
		withTempDir(async (cwd) => {
			const read = echoTool("read", { description: "my own read" }).definition;
			const session = await createAgentSession({ cwd, model: createFauxModel([]), customTools: [read] });
			expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
			const info = session.getAllTools().find((tool) => tool.name === "read");
			expect(info?.source).toBe("sdk");
			expect(session.getDeclaredTools()[0]?.description).toBe("my own read");
			await session.dispose();
		}));

	it("keeps the wrapped tools across a refresh (no re-wrapping of unchanged definitions)", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({ cwd, model: createFauxModel([]) });
			const before = [...session.agent.state.tools];
			session.refreshTools();
			expect(session.agent.state.tools).toHaveLength(before.length);
			for (const [index, tool] of session.agent.state.tools.entries()) expect(tool).toBe(before[index]);
			await session.dispose();
		}));

	it("keeps the active order stable: kept tools keep their place, new ones append", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({ cwd, model: createFauxModel([]) });
			session.setActiveToolsByName(["write", "grep", "read"]);
			expect(session.getActiveToolNames()).toEqual(["read", "write", "grep"]);
			await session.dispose();
		}));
});

describe("loadout", () => {
	it("re-describes and hides declarations, checked against the request the model received", () =>
		withTempDir(async (cwd) => {
			const hidden = echoTool("secretive");
			const manager = echoTool("manager", {
				prepareLoadout: (loadout) => ({
					descriptions: { echo: `Echo (${loadout.declared.length} active)` },
					hiddenDeclarations: ["secretive"],
				}),
			});
			const echo = echoTool("echo", {
				promptSnippet: "Echo things",
				promptGuidelines: ["Echo politely.", " Echo politely. "],
			});
			const model = createFauxModel([{ text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition, hidden.definition, manager.definition],
			});
			expect(session.getActiveToolNames()).toEqual(["echo", "secretive", "manager"]);
			expect(session.getCallableToolNames()).toContain("secretive");
			expect(session.getDeclaredTools().map((tool) => tool.name)).toEqual(["echo", "manager"]);
			await session.prompt("hi");
			expect(declaredNames(model.calls[0])).toEqual(["echo", "manager"]);
			expect(model.calls[0]?.tools?.[0]?.description).toBe("Echo (3 active)");
			const prompt = model.calls[0]?.systemPrompt ?? "";
			expect(prompt).toContain("- echo: Echo things");
			expect(prompt.match(/Echo politely\./g)).toHaveLength(1);
			await session.dispose();
		}));

	it("rebuilds the system prompt when the active set changes", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({ cwd, model: createFauxModel([]) });
			expect(session.systemPrompt).toContain("- read: ");
			expect(session.systemPrompt).not.toContain("- grep: ");
			session.setActiveToolsByName(["read", "grep"]);
			expect(session.systemPrompt).toContain("- grep: ");
			expect(session.systemPrompt).not.toContain("- bash: ");
			expect(session.systemPrompt).toContain(`Current working directory: ${cwd}`);
			await session.dispose();
		}));

	it("reports and ignores a throwing prepareLoadout", () =>
		withTempDir(async (cwd) => {
			const broken = echoTool("broken", {
				prepareLoadout: () => {
					throw new Error("loadout exploded");
				},
			});
			const diagnostics: string[] = [];
			const session = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				customTools: [broken.definition],
			});
			session.onDiagnostic((message) => diagnostics.push(message));
			session.refreshTools();
			expect(diagnostics.some((message) => message.includes("broken"))).toBe(true);
			expect(session.getDeclaredTools().map((tool) => tool.name)).toEqual(["broken"]);
			await session.dispose();
		}));

	it("applies an active-set change made by a tool during a run from the next request", () =>
		withTempDir(async (cwd) => {
			const extra = echoTool("extra", { exposure: "deferred" });
			const model = createFauxModel([
				{ toolCalls: [{ name: "tool_search", arguments: { query: "extra" } }] },
				{ toolCalls: [{ name: "extra", arguments: { text: "hi" } }] },
				{ text: "done" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				tools: ["*", "tool_search"],
				customTools: [extra.definition],
			});
			await session.prompt("find it");
			expect(declaredNames(model.calls[0])).toEqual(["tool_search"]);
			expect(declaredNames(model.calls[1])).toEqual(["tool_search", "extra"]);
			const results = toolResults(session.messages);
			expect(textOf(results[0])).toContain("Loaded 1 tool");
			expect(results[1]?.isError).toBe(false);
			expect(extra.calls).toEqual(["hi"]);
			await session.dispose();
		}));
});
