import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { plainTheme } from "@gantry/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { createLsToolDefinition, localLsOperations } from "../src/ls/ls.js";
import type { LsToolInput, LsToolOptions } from "../src/ls/types.js";
import { makeTempFolder, writeTree } from "./search/fixture.js";

type Result = Awaited<ReturnType<ReturnType<typeof createLsToolDefinition>["execute"]>>;

function textOf(result: Result): string {
	const [block] = result.content;
	if (block === undefined) throw new Error("The result has no content");
	return block.type === "text" ? block.text : "";
}

function ls(cwd: string, params: LsToolInput = {}, options: LsToolOptions = {}, signal?: AbortSignal) {
	return createLsToolDefinition(cwd, options).execute("call", params, signal, undefined, undefined as never);
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
	await cleanup?.();
	cleanup = undefined;
});

async function folder(files: Record<string, string> = {}): Promise<string> {
	const { root, remove } = await makeTempFolder("gantry-ls-");
	cleanup = remove;
	await writeTree(root, files);
	return root;
}

describe("ls", () => {
	it("sorts case-insensitively, includes dotfiles, and marks folders and links to folders with /", async () => {
		const root = await folder({
			"b.txt": "",
			"A.md": "",
			"c/x": "",
			".env": "",
			".config/y": "",
			"B2.txt": "",
			Zed: "",
		});
		await symlink(join(root, "c"), join(root, "link-dir"));
		await symlink(join(root, "b.txt"), join(root, "link-file"));
		await symlink(join(root, "missing"), join(root, "broken"));
		const result = await ls(root);
		expect(textOf(result)).toBe(
			[".config/", ".env", "A.md", "b.txt", "B2.txt", "broken", "c/", "link-dir/", "link-file", "Zed"].join("\n"),
		);
		expect(result.structuredContent).toEqual({
			entries: [
				{ name: ".config", type: "directory" },
				{ name: ".env", type: "file" },
				{ name: "A.md", type: "file" },
				{ name: "b.txt", type: "file" },
				{ name: "B2.txt", type: "file" },
				{ name: "broken", type: "other" },
				{ name: "c", type: "directory" },
				{ name: "link-dir", type: "directory" },
				{ name: "link-file", type: "file" },
				{ name: "Zed", type: "file" },
			],
			truncated: false,
		});
		expect(result.details).toEqual({ entryCount: 10 });
	});

	it("keeps names that differ only in case in a stable order", async () => {
		const root = await folder({ readme: "", README: "", ReadMe: "" });
		expect(textOf(await ls(root))).toBe("README\nReadMe\nreadme");
	});

	it("lists path relative to the working folder, and the working folder by default", async () => {
		const root = await folder({ "sub/inner.ts": "", "top.ts": "" });
		expect(textOf(await ls(root, { path: "sub" }))).toBe("inner.ts");
		expect(textOf(await ls(join(root, "sub"), { path: ".." }))).toBe("sub/\ntop.ts");
		expect(textOf(await ls(root, { path: null, limit: null } as unknown as LsToolInput))).toBe("sub/\ntop.ts");
	});

	it("adds a notice at the limit", async () => {
		const root = await folder({ a: "", b: "", c: "", d: "", e: "" });
		const result = await ls(root, { limit: 3 });
		expect(textOf(result)).toBe("a\nb\nc\n\n[3 entries limit reached. Use limit=6 for more]");
		expect(result.structuredContent).toMatchObject({ truncated: true });
		expect(result.details).toEqual({ entryCount: 3, entryLimitReached: 3 });
		expect(textOf(await ls(root, { limit: 5 }))).toBe("a\nb\nc\nd\ne");
	});

	it("stops at 500 entries by default", async () => {
		const root = await folder();
		await Promise.all(
			Array.from({ length: 501 }, (_, index) => mkdir(join(root, `d${String(index).padStart(3, "0")}`))),
		);
		const text = textOf(await ls(root));
		expect(text.split("\n").slice(-1)[0]).toBe("[500 entries limit reached. Use limit=1000 for more]");
		expect(text.split("\n")[499]).toBe("d499/");
	});

	it('says "(empty directory)"', async () => {
		const root = await folder();
		const result = await ls(root);
		expect(textOf(result)).toBe("(empty directory)");
		expect(result.structuredContent).toEqual({ entries: [], truncated: false });
	});

	it("fails clearly for a missing path and for a file", async () => {
		const root = await folder({ "file.txt": "x" });
		await expect(ls(root, { path: "nope" })).rejects.toThrow(`Path not found: ${join(root, "nope")}`);
		await expect(ls(root, { path: "file.txt" })).rejects.toThrow(`Not a directory: ${join(root, "file.txt")}`);
		await expect(ls(root, { limit: 0 })).rejects.toThrow("limit must be a whole number");
	});

	it("bounds the output to 50 KB with a notice", async () => {
		const root = await folder();
		await Promise.all(Array.from({ length: 400 }, (_, index) => mkdir(join(root, `${"n".repeat(200)}${index}`))));
		const result = await ls(root);
		expect(Buffer.byteLength(textOf(result))).toBeLessThan(51 * 1024);
		expect(textOf(result)).toMatch(/\[Output cut at 50\.0 KB: \d+ of 400 entries shown\. Use a smaller limit\]$/);
		expect((result.structuredContent as { truncated: boolean }).truncated).toBe(true);
	});

	it("fails with Operation aborted when the signal has fired", async () => {
		const root = await folder({ a: "" });
		const controller = new AbortController();
		controller.abort();
		await expect(ls(root, {}, {}, controller.signal)).rejects.toThrow("Operation aborted");
	});

	it("does its I/O through the operations", async () => {
		const listed: string[] = [];
		const result = await ls(
			"/remote",
			{ path: "x" },
			{
				operations: {
					stat: async () => "directory",
					readdir: async (path) => {
						listed.push(path);
						return [
							{ name: "z", type: "file" },
							{ name: "Y", type: "directory" },
						];
					},
				},
			},
		);
		expect(listed).toEqual(["/remote/x"]);
		expect(textOf(result)).toBe("Y/\nz");
		expect(localLsOperations.readdir).toBeTypeOf("function");
	});

	it("renders the call and the result", async () => {
		const root = await folder({ a: "", "b/c": "" });
		const definition = createLsToolDefinition(root);
		const result = await ls(root);
		expect(definition.renderCall?.({ path: "src" }, plainTheme)).toBe("ls src");
		expect(definition.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme)).toBe(
			"2 entries\na\nb/",
		);
		expect(definition.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
	});
});
