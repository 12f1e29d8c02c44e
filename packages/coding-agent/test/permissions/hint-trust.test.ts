import { createFauxModel } from "@gantry/ai";
import type { ToolAnnotations } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { classifyTool, createAgentSession, createPermissionPolicy, explainToolPermission } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "../session/helpers.js";

describe("hints from a program nobody vetted (hintTrust)", () => {
	it("counts readOnlyHint alone under 'readOnlyHint' and no hint under 'none'", () => {
		expect(classifyTool({ readOnlyHint: true, hintTrust: "readOnlyHint" })).toBe("read-only");
		expect(classifyTool({ destructiveHint: false, openWorldHint: false, hintTrust: "readOnlyHint" })).toBe(
			"needs-approval",
		);
		expect(classifyTool({ readOnlyHint: true, hintTrust: "none" })).toBe("needs-approval");
		expect(classifyTool({ destructiveHint: false, openWorldHint: false, hintTrust: "none" })).toBe("needs-approval");
		expect(
			explainToolPermission({ name: "mcp__p__look", annotations: { readOnlyHint: true, hintTrust: "none" } }),
		).toEqual({
			decision: "ask",
			decidedBy: "may change things",
			mode: "default",
			conditional: { allow: [], deny: [], ask: [] },
		});
	});

	it("a call of a tool whose hints are not trusted is blocked without a UI until a rule allows it", () =>
		withTempDir(async (cwd) => {
			const untrusted: ToolAnnotations = { readOnlyHint: true, hintTrust: "none" };
			const run = async (allow: string[]) => {
				const tool = echoTool("mcp__project__look", { annotations: untrusted });
				const session = await createAgentSession({
					cwd,
					model: createFauxModel([
						{ toolCalls: [{ name: "mcp__project__look", arguments: { text: "hi" } }] },
						{ text: "ok" },
					]),
					noTools: "builtin",
					customTools: [tool.definition],
					extensions: [createPermissionPolicy({ permissions: { allow } })],
				});
				await session.prompt("look");
				const [result] = toolResults(session.messages);
				await session.dispose();
				return { result, calls: tool.calls };
			};
			const blocked = await run([]);
			expect(blocked.result?.isError).toBe(true);
			expect(textOf(blocked.result)).toContain("Blocked by the permission policy");
			expect(blocked.calls).toEqual([]);
			const allowed = await run(["mcp__project__*"]);
			expect(allowed.result?.isError).toBe(false);
			expect(allowed.calls).toEqual(["hi"]);
		}));
});
