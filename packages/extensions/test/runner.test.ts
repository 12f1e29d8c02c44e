import { describe, expect, it } from "vitest";
import {
	type ExtensionAPI,
	type ExtensionDiagnostic,
	ExtensionError,
	ExtensionRunner,
	type ToolsChangedEvent,
} from "../src/index.js";
import { assistantMessage, textTool } from "./helpers.js";

describe("ExtensionRunner.add", () => {
	it("collects tools in registration order with their sources", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) => api.registerTool(textTool("alpha")), "/ext/a.ts");
		await runner.add(async (api) => {
			await Promise.resolve();
			api.registerTool(textTool("beta"));
			api.registerTool(textTool("gamma"));
		}, "/ext/b.ts");
		expect(runner.getAllRegisteredTools().map((tool) => tool.name)).toEqual(["alpha", "beta", "gamma"]);
		expect(runner.getToolSource("alpha")).toBe("/ext/a.ts");
		expect(runner.getToolSource("gamma")).toBe("/ext/b.ts");
		expect(runner.getToolSource("missing")).toBeUndefined();
		expect(runner.getExtensionSources()).toEqual(["/ext/a.ts", "/ext/b.ts"]);
	});

	it("keeps the first registration of a name and reports the later one naming both extensions", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const reported: ExtensionDiagnostic[] = [];
		runner.onError((diagnostic) => reported.push(diagnostic));
		await runner.add((api) => api.registerTool(textTool("shared", "first")), "first.ts");
		await runner.add((api) => api.registerTool(textTool("shared", "second")), "second.ts");

		expect(runner.getAllRegisteredTools()).toHaveLength(1);
		expect(runner.getAllRegisteredTools()[0]?.description).toBe("Answers first");
		expect(runner.getToolSource("shared")).toBe("first.ts");
		const diagnostics = runner.getDiagnostics();
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toMatchObject({ code: "tool_conflict", source: "second.ts", toolName: "shared" });
		expect(diagnostics[0]?.message).toContain("first.ts");
		expect(diagnostics[0]?.message).toContain("second.ts");
		expect(reported).toEqual(diagnostics);
	});

	it("rejects naming the extension when it throws, and keeps nothing it registered", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const failing = runner.add((api) => {
			api.registerTool(textTool("half_done"));
			api.on("tool_call", () => ({ block: true }));
			throw new Error("boom");
		}, "broken.ts");
		await expect(failing).rejects.toThrow("Extension broken.ts failed: boom");
		await expect(failing).rejects.toMatchObject({ code: "extension_failed", source: "broken.ts" });
		expect(runner.getAllRegisteredTools()).toEqual([]);
		expect(runner.hasHandlers("tool_call")).toBe(false);
		expect(runner.getExtensionSources()).toEqual([]);
	});

	it("names an inline extension <inline> by default", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) => api.registerTool(textTool("inline_tool")));
		expect(runner.getToolSource("inline_tool")).toBe("<inline>");
	});

	it("rejects handlers for unknown events and handlers that are not functions", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const unknownEvent = runner.add((api) => {
			(api.on as (event: string, handler: () => void) => void)("tool_calls", () => {});
		}, "typo.ts");
		await expect(unknownEvent).rejects.toThrow(/Extension typo\.ts: unknown event "tool_calls"/);
		await expect(unknownEvent).rejects.toBeInstanceOf(ExtensionError);
		const notAFunction = runner.add((api) => api.on("turn_start", "nope" as never), "bad-handler.ts");
		await expect(notAFunction).rejects.toThrow(
			'Extension bad-handler.ts: the handler for "turn_start" is not a function',
		);
	});

	it("gives a late-registered tool's conflict the same first-wins treatment", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) => api.registerTool(textTool("taken")), "owner.ts");
		await runner.add((api) => api.on("agent_start", () => api.registerTool(textTool("taken", "late"))), "late.ts");
		await runner.emit({ type: "agent_start" });
		expect(runner.getToolSource("taken")).toBe("owner.ts");
		expect(runner.getDiagnostics()[0]?.message).toMatch(/late\.ts.*owner\.ts/);
	});
});

describe("ExtensionRunner.addLoaded", () => {
	it("turns load errors and throwing extensions into diagnostics and adds the rest", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const reported: string[] = [];
		runner.onError((diagnostic) => reported.push(diagnostic.code));
		await runner.addLoaded([
			{ path: "/ext/missing.ts", error: new ExtensionError("module_not_found", "/ext/missing.ts", "gone") },
			{
				path: "/ext/throws.ts",
				extension: () => {
					throw new Error("setup failed");
				},
			},
			{ path: "/ext/good.ts", extension: (api) => api.registerTool(textTool("good")) },
		]);
		expect(runner.getAllRegisteredTools().map((tool) => tool.name)).toEqual(["good"]);
		expect(runner.getToolSource("good")).toBe("/ext/good.ts");
		expect(runner.getDiagnostics().map((diagnostic) => [diagnostic.code, diagnostic.source])).toEqual([
			["load_failed", "/ext/missing.ts"],
			["extension_failed", "/ext/throws.ts"],
		]);
		expect(runner.getDiagnostics()[1]?.message).toContain("setup failed");
		expect(reported).toEqual(["load_failed", "extension_failed"]);
	});
});

describe("ExtensionRunner listeners", () => {
	it("tells tools-changed listeners after an add and at once for tools registered later", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const changes: ToolsChangedEvent[] = [];
		runner.onToolsChanged((change) => changes.push(change));
		await runner.add((api) => {
			api.registerTool(textTool("first"));
			api.on("turn_end", () => api.registerTool(textTool("late")));
		}, "grows.ts");
		expect(changes).toEqual([{ source: "grows.ts", toolNames: ["first"], removedToolNames: [] }]);

		await runner.emit({ type: "turn_end", message: assistantMessage(), toolResults: [] });
		expect(changes).toEqual([
			{ source: "grows.ts", toolNames: ["first"], removedToolNames: [] },
			{ source: "grows.ts", toolNames: ["late"], removedToolNames: [] },
		]);
		expect(runner.getToolSource("late")).toBe("grows.ts");
	});

	it("stops calling a listener after it unsubscribes and survives listeners that throw", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const seen: string[] = [];
		runner.onError(() => {
			throw new Error("listener bug");
		});
		const unsubscribe = runner.onError((diagnostic) => seen.push(diagnostic.toolName ?? ""));
		await runner.add((api) => api.registerTool(textTool("twice")), "a.ts");
		await runner.add((api) => api.registerTool(textTool("twice")), "b.ts");
		unsubscribe();
		await runner.add((api) => api.registerTool(textTool("twice")), "c.ts");
		expect(seen).toEqual(["twice"]);
		expect(runner.getDiagnostics()).toHaveLength(2);
	});

	it("says whether an event has handlers", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		expect(runner.hasHandlers("tool_result")).toBe(false);
		await runner.add((api) => api.on("tool_result", () => undefined));
		expect(runner.hasHandlers("tool_result")).toBe(true);
		expect(runner.hasHandlers("tool_call")).toBe(false);
	});
});

describe("ExtensionRunner tool actions", () => {
	it("answers from its own tools before a host is bound", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		let api: ExtensionAPI | undefined;
		await runner.add((extensionApi) => {
			api = extensionApi;
			extensionApi.registerTool(textTool("plain"));
			extensionApi.registerTool(
				textTool("script_only", "s", { exposure: "codemode", annotations: { readOnlyHint: true } }),
			);
			extensionApi.registerTool(textTool("gone", "g", { exposure: "hidden", defaultActive: true }));
			extensionApi.registerTool(textTool("quiet", "q", { defaultActive: false }));
		}, "tools.ts");
		expect(api?.getAllTools().map((tool) => [tool.name, tool.exposure, tool.source])).toEqual([
			["plain", "direct", "tools.ts"],
			["script_only", "codemode", "tools.ts"],
			["gone", "hidden", "tools.ts"],
			["quiet", "direct", "tools.ts"],
		]);
		expect(api?.getAllTools()[1]?.annotations).toEqual({ readOnlyHint: true });
		expect(api?.getActiveTools()).toEqual(["plain"]);

		// Unknown and hidden names are ignored; duplicates collapse.
		api?.setActiveTools(["script_only", "gone", "unknown", "plain", "plain"]);
		expect(api?.getActiveTools()).toEqual(["script_only", "plain"]);
		expect(() => api?.refreshTools()).not.toThrow();
	});

	it("lists default-active tools when nothing was requested", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		let active: string[] = [];
		await runner.add((api) => {
			api.registerTool(textTool("plain"));
			api.registerTool(textTool("model_side", "m", { exposure: "model-only" }));
			api.registerTool(textTool("deferred_on", "d", { exposure: "deferred", defaultActive: true }));
			api.registerTool(textTool("deferred_off", "d", { exposure: "deferred" }));
			active = api.getActiveTools();
		});
		expect(active).toEqual(["plain", "model_side", "deferred_on"]);
	});

	it("delegates to the action host and forwards an earlier setActiveTools request when it binds", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const calls: string[] = [];
		let api: ExtensionAPI | undefined;
		await runner.add((extensionApi) => {
			api = extensionApi;
		});
		api?.setActiveTools(["read", "grep"]);
		runner.setActionHost({
			getActiveTools: () => ["from_host"],
			getAllTools: () => [{ name: "read", label: "Read", description: "d", exposure: "direct", source: "builtin" }],
			setActiveTools: (names) => calls.push(`set:${names.join(",")}`),
			refreshTools: () => calls.push("refresh"),
		});
		expect(calls).toEqual(["set:read,grep"]);
		expect(api?.getActiveTools()).toEqual(["from_host"]);
		expect(api?.getAllTools().map((tool) => tool.source)).toEqual(["builtin"]);
		api?.setActiveTools(["bash"]);
		api?.refreshTools();
		expect(calls).toEqual(["set:read,grep", "set:bash", "refresh"]);
	});
});

describe("ExtensionRunner.createContext", () => {
	it("without a UI: hasUI is false, confirm resolves false, select resolves undefined, notify does nothing", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const context = runner.createContext();
		expect(context.hasUI).toBe(false);
		await expect(context.ui.confirm("Delete?")).resolves.toBe(false);
		await expect(context.ui.select("Pick", ["a", "b"])).resolves.toBeUndefined();
		expect(() => context.ui.notify("hello")).not.toThrow();
		expect(() => context.abort()).not.toThrow();
		expect(context.signal).toBeUndefined();
	});

	it("uses the given UI and the host's model, signal and abort", async () => {
		const asked: string[] = [];
		const runner = new ExtensionRunner({
			cwd: "/work",
			ui: {
				confirm: async (title) => {
					asked.push(title);
					return true;
				},
				select: async (_title, options) => options[1],
				notify: () => {},
			},
		});
		const controller = new AbortController();
		runner.setActionHost({
			getActiveTools: () => [],
			getAllTools: () => [],
			setActiveTools: () => {},
			refreshTools: () => {},
			getSignal: () => controller.signal,
			abort: () => controller.abort(),
		});
		const context = runner.createContext();
		expect(context.hasUI).toBe(true);
		await expect(context.ui.confirm("Run it?")).resolves.toBe(true);
		await expect(context.ui.select("Pick", ["a", "b"])).resolves.toBe("b");
		expect(asked).toEqual(["Run it?"]);
		expect(context.signal).toBe(controller.signal);
		context.abort();
		expect(controller.signal.aborted).toBe(true);
	});

	it("hands handlers the workspace it was given, and none without one", () => {
		const workspace = {
			cwd: "/srv/app",
			home: "/home/dev",
			isLocal: false,
			label: "dev@build:22",
			resolvePath: (path: string) => `/srv/app/${path}`,
			fs: {
				realpath: async (path: string) => path,
				readlink: async (path: string) => path,
				stat: async () => undefined,
				readdir: async () => [],
			},
		};
		expect(new ExtensionRunner({ cwd: "/srv/app", workspace }).createContext().workspace).toBe(workspace);
		expect("workspace" in new ExtensionRunner({ cwd: "/work" }).createContext()).toBe(false);
	});
});
