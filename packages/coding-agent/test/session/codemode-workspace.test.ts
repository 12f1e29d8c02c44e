import { existsSync, readFileSync } from "node:fs";
import { type Context, createFauxModel } from "@gantry/ai";
import { createMappedWorkspace, type MappedWorkspace, VIRTUAL_TEMP } from "@gantry/tools/testing";
import { afterEach, assert, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { textOf, toolResults } from "./helpers.js";

let mapped: MappedWorkspace;
beforeEach(async () => {
	mapped = await createMappedWorkspace();
});
afterEach(() => mapped.cleanup());

/** The path the last tool result names as holding the full output. */
function reportedPath(context: Context): string {
	const last = context.messages.at(-1);
	const text =
		last?.role === "toolResult" ? last.content.map((block) => (block.type === "text" ? block.text : "")) : [];
	return /the full output is in (\S+) \.\.\.\]/.exec(text.join(""))?.[1] ?? "no path reported";
}

describe("codemode's full-output file on a workspace that is not this machine", () => {
	it("is written through the session's workspace, where the model's read finds it", async () => {
		const code = "for (let i = 0; i < 2000; i++) text('row ' + i);";
		const model = createFauxModel([
			{ toolCalls: [{ id: "cm", name: "codemode", arguments: { code } }] },
			(context) => ({
				toolCalls: [{ id: "rd", name: "read", arguments: { path: reportedPath(context), offset: 1500 } }],
			}),
			{ text: "done" },
		]);
		const session = await createAgentSession({
			workspace: mapped.workspace,
			model,
			tools: ["read", "codemode"],
			codemode: { maxOutputTokens: 50 },
		});
		try {
			await session.prompt("print many rows");
			const [script, read] = toolResults(session.messages);
			assert.isDefined(script);
			const path = (script.details as { fullOutputPath?: string }).fullOutputPath ?? "";
			expect(path.startsWith(`${session.tempDir}/codemode-output-`)).toBe(true);
			expect(session.tempDir.startsWith(`${VIRTUAL_TEMP}/`)).toBe(true);
			expect(textOf(script)).toContain(`the full output is in ${path} ...]`);
			expect(mapped.operations).toContain(`mkdir ${session.tempDir}`);
			expect(mapped.operations).toContain(`createWriteStream ${path}`);
			// The file is behind the mapping, complete; nothing was made on this machine at the virtual path.
			const real = mapped.real(path);
			const saved = readFileSync(real, "utf8").split("\n");
			expect(saved).toHaveLength(2000);
			expect(saved[1999]).toBe("row 1999");
			expect(existsSync(path)).toBe(false);
			expect(existsSync(session.tempDir)).toBe(false);
			// The model's read of the reported path works (through the same workspace).
			expect(read?.isError).toBe(false);
			expect(textOf(read)).toContain("row 1499\nrow 1500\n");
		} finally {
			await session.dispose();
		}
	});
});
