import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApplyPatchToolDefinition } from "../../src/apply-patch/apply-patch.js";
import { createMappedWorkspace, type MappedWorkspace } from "../../src/testing/index.js";

let mapped: MappedWorkspace;

beforeEach(async () => {
	mapped = await createMappedWorkspace();
});

afterEach(async () => {
	await mapped.cleanup();
});

describe("apply_patch over a workspace that is not this machine", () => {
	it("reads and writes every file through the workspace, at its own paths", async () => {
		await writeFile(join(mapped.project, "a.txt"), "one\ntwo\n");
		await mkdir(join(mapped.project, "old"));
		await writeFile(join(mapped.project, "old", "b.txt"), "bee\n");
		await writeFile(join(mapped.project, "gone.txt"), "bye\n");
		const tool = wrapToolDefinition(createApplyPatchToolDefinition(mapped.workspace));
		const result = await tool.execute("call_1", {
			input: [
				"*** Begin Patch",
				"*** Update File: a.txt",
				" one",
				"-two",
				"+2",
				"*** Update File: old/b.txt",
				"*** Move to: new/b.txt",
				"-bee",
				"+BEE",
				"*** Delete File: gone.txt",
				"*** Add File: c.txt",
				"+sea",
				"*** End Patch",
			].join("\n"),
		});
		expect(result.content[0]).toEqual({
			type: "text",
			text: "Success. Updated the following files:\nM a.txt\nM new/b.txt\nD gone.txt\nA c.txt",
		});
		expect(await readFile(join(mapped.project, "a.txt"), "utf8")).toBe("one\n2\n");
		expect(await readFile(join(mapped.project, "new", "b.txt"), "utf8")).toBe("BEE\n");
		expect(await readFile(join(mapped.project, "c.txt"), "utf8")).toBe("sea\n");
		await expect(stat(join(mapped.project, "gone.txt"))).rejects.toThrow(/ENOENT/);
		await expect(stat(join(mapped.project, "old", "b.txt"))).rejects.toThrow(/ENOENT/);
		expect(mapped.operations).toEqual(
			expect.arrayContaining([
				"readFile /virtual/project/a.txt",
				"writeFileAtomic /virtual/project/a.txt",
				"mkdir /virtual/project/new",
				"writeFileAtomic /virtual/project/new/b.txt",
				"unlink /virtual/project/old/b.txt",
				"unlink /virtual/project/gone.txt",
				"writeFileAtomic /virtual/project/c.txt",
			]),
		);
		// Every operation names a path of the workspace, never one of this machine.
		for (const operation of mapped.operations) expect(operation).toMatch(/ \/virtual\//);
		expect(result.structuredContent).toMatchObject({
			files: [
				{ path: "/virtual/project/a.txt", kind: "update" },
				{ path: "/virtual/project/old/b.txt", kind: "move", movePath: "/virtual/project/new/b.txt" },
				{ path: "/virtual/project/gone.txt", kind: "delete" },
				{ path: "/virtual/project/c.txt", kind: "add" },
			],
		});
	});

	it("refuses paths outside the workspace's working folder, with its POSIX paths", async () => {
		const tool = wrapToolDefinition(createApplyPatchToolDefinition(mapped.workspace));
		for (const path of ["/virtual/home/.bashrc", "~/.profile", "../escape.txt"]) {
			await expect(
				tool.execute("c", { input: `*** Begin Patch\n*** Add File: ${path}\n+x\n*** End Patch` }),
			).rejects.toThrow(/outside the working folder \(\/virtual\/project\)/);
		}
		expect(mapped.operations.filter((operation) => operation.startsWith("writeFileAtomic"))).toEqual([]);
	});
});
