import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plainTheme, wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApplyPatchToolDefinition } from "../../src/apply-patch/apply-patch.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-apply-patch-render-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

const theme = { ...plainTheme, success: (text: string) => `+(${text})`, error: (text: string) => `-(${text})` };

describe("apply_patch rendering", () => {
	it("names the files of the call, also while the patch is still streaming", () => {
		const definition = createApplyPatchToolDefinition(folder);
		const input = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: src/b.ts\n@@\n-";
		expect(definition.renderCall?.({ input }, plainTheme)).toBe("apply_patch A a.txt, M src/b.ts");
	});

	it("draws each file's name and diff like edit's frame, folded unless expanded, and an error's first line", async () => {
		await writeFile(join(folder, "b.txt"), `${Array.from({ length: 30 }, (_, index) => `line ${index}`).join("\n")}\n`);
		const definition = createApplyPatchToolDefinition(folder);
		const tool = wrapToolDefinition(definition);
		const removed = Array.from({ length: 30 }, (_, index) => `-line ${index}`).join("\n");
		const result = await tool.execute("c", {
			input: `*** Begin Patch\n*** Add File: a.txt\n+hello\n*** Update File: b.txt\n${removed}\n+short\n*** End Patch`,
		});
		const collapsed = definition.renderResult?.(result as never, { expanded: false, isPartial: false }, theme) ?? "";
		const lines = collapsed.split("\n");
		expect(lines.slice(0, 6)).toEqual([
			"+(Success. Updated the following files:)",
			"A a.txt",
			"@@ -0,0 +1,1 @@",
			"+(+hello)",
			"M b.txt",
			"@@ -1,30 +1,1 @@",
		]);
		expect(lines).toHaveLength(22);
		expect(lines[21]).toBe("… 16 more diff lines (expand to see all)");
		const expanded = definition.renderResult?.(result as never, { expanded: true, isPartial: false }, theme) ?? "";
		expect(expanded.split("\n")).toHaveLength(1 + 3 + 2 + 31);
		const failed = { content: [{ type: "text" as const, text: "a.txt, hunk 1: expected…\n    more" }], isError: true };
		expect(definition.renderResult?.(failed as never, { expanded: false, isPartial: false }, theme)).toBe(
			"-(a.txt, hunk 1: expected…)",
		);
	});
});
