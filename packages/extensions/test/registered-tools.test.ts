import { describe, expect, it } from "vitest";
import { type ExtensionAPI, type ExtensionDiagnostic, ExtensionRunner, type ToolsChangedEvent } from "../src/index.js";
import { textTool } from "./helpers.js";

/** A runner with one extension per source; `apis` holds their APIs in the same order, one per source. */
async function runnerWith<TSources extends string[]>(...sources: TSources) {
	const runner = new ExtensionRunner({ cwd: "/work" });
	const added: ExtensionAPI[] = [];
	for (const source of sources) await runner.add((api) => void added.push(api), source);
	if (added.length !== sources.length) throw new Error(`${added.length} extension APIs for ${sources.length} sources`);
	const apis = added as { [K in keyof TSources]: ExtensionAPI };
	const changes: ToolsChangedEvent[] = [];
	runner.onToolsChanged((change) => changes.push(change));
	const diagnostics: ExtensionDiagnostic[] = [];
	runner.onError((diagnostic) => diagnostics.push(diagnostic));
	return { runner, apis, changes, diagnostics };
}

const names = (runner: ExtensionRunner) => runner.getAllRegisteredTools().map((tool) => tool.name);

describe("registering again, and unregistering", () => {
	it("replaces a tool registered again by the same extension, in its place", async () => {
		const { runner, apis, changes, diagnostics } = await runnerWith("a.ts");
		const [api] = apis;
		api.registerTool(textTool("one"));
		api.registerTool(textTool("two", "old two"));
		api.registerTool(textTool("three"));
		api.registerTool(textTool("two", "new two", { annotations: { readOnlyHint: false, destructiveHint: true } }));
		expect(names(runner)).toEqual(["one", "two", "three"]);
		expect(runner.getAllRegisteredTools()[1]?.description).toBe("Answers new two");
		expect(api.getToolInfo("two")?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
		expect(diagnostics).toEqual([]);
		expect(changes.at(-1)).toEqual({ source: "a.ts", toolNames: ["two"], removedToolNames: [] });
	});

	it("unregisters only its own tools, says why, and a tool that returns goes back to its place", async () => {
		const { runner, apis, changes } = await runnerWith("a.ts", "b.ts");
		const [a, b] = apis;
		a.registerTool(textTool("first"));
		a.registerTool(textTool("middle"));
		b.registerTool(textTool("last"));
		expect(b.unregisterTool("middle")).toBe(false);
		expect(a.unregisterTool("nothing")).toBe(false);
		expect(names(runner)).toEqual(["first", "middle", "last"]);

		expect(a.unregisterTool("middle", "the server went away")).toBe(true);
		expect(names(runner)).toEqual(["first", "last"]);
		expect(a.getToolInfo("middle")).toBeUndefined();
		expect(changes.at(-1)).toEqual({
			source: "a.ts",
			toolNames: [],
			removedToolNames: ["middle"],
			reason: "the server went away",
		});
		expect(a.unregisterTool("middle")).toBe(false);

		a.registerTool(textTool("middle", "back"));
		expect(names(runner)).toEqual(["first", "middle", "last"]);
		expect(runner.getToolSource("middle")).toBe("a.ts");
	});

	it("lets another extension take a name once it was unregistered, and not before", async () => {
		const { runner, apis, diagnostics } = await runnerWith("a.ts", "b.ts");
		const [a, b] = apis;
		a.registerTool(textTool("shared", "from a"));
		b.registerTool(textTool("shared", "from b"));
		expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["tool_conflict"]);
		a.unregisterTool("shared");
		b.registerTool(textTool("shared", "from b"));
		expect(runner.getToolSource("shared")).toBe("b.ts");
		expect(runner.getAllRegisteredTools()[0]?.description).toBe("Answers from b");
	});

	it("keeps two extensions added under the same name apart", async () => {
		const { runner, apis, diagnostics } = await runnerWith("<inline>", "<inline>");
		apis[0].registerTool(textTool("shared", "first"));
		apis[1].registerTool(textTool("shared", "second"));
		expect(runner.getAllRegisteredTools()[0]?.description).toBe("Answers first");
		expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["tool_conflict"]);
		expect(apis[1].unregisterTool("shared")).toBe(false);
	});

	it("forgets a tool unregistered while its extension is still loading, without announcing it", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const changes: ToolsChangedEvent[] = [];
		runner.onToolsChanged((change) => changes.push(change));
		await runner.add((api) => {
			api.registerTool(textTool("kept"));
			api.registerTool(textTool("dropped"));
			api.registerTool(textTool("kept"));
			api.unregisterTool("dropped");
		}, "loading.ts");
		expect(names(runner)).toEqual(["kept"]);
		expect(changes).toEqual([{ source: "loading.ts", toolNames: ["kept"], removedToolNames: [] }]);
	});
});
