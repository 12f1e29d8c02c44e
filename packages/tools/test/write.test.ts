import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { plainTheme, wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WriteOperations } from "../src/write/types.js";
import { createWriteToolDefinition, localWriteOperations } from "../src/write/write.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-write-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

function writeTool(operations?: WriteOperations) {
	return wrapToolDefinition(createWriteToolDefinition(folder, operations ? { operations } : {}));
}

function firstText(result: { content: { type: string; text?: string }[] }): string {
	return result.content[0]?.text ?? "";
}

describe("write", () => {
	it("creates a file and its missing parent folders, counting UTF-8 bytes", async () => {
		const result = await writeTool().execute("c", { path: "a/b/c/new.txt", content: "héllo\n" });
		const path = join(folder, "a/b/c/new.txt");
		expect(await readFile(path, "utf8")).toBe("héllo\n");
		expect(firstText(result)).toBe("Wrote 7 bytes to a/b/c/new.txt (created).");
		expect(result.structuredContent).toEqual({ path, bytes: 7, created: true });
		expect(result.details).toEqual({ path, bytes: 7, created: true });
	});

	it("overwrites an existing file, keeping its permission bits", async () => {
		const path = join(folder, "run.sh");
		await writeFile(path, "#!/bin/sh\necho old\n");
		await chmod(path, 0o755);
		const result = await writeTool().execute("c", { path: "run.sh", content: "#!/bin/sh\necho new\n" });
		expect(await readFile(path, "utf8")).toBe("#!/bin/sh\necho new\n");
		expect((await stat(path)).mode & 0o777).toBe(0o755);
		expect(firstText(result)).toBe("Wrote 19 bytes to run.sh (overwritten).");
		expect(result.structuredContent).toEqual({ path, bytes: 19, created: false });
	});

	it("leaves no temporary file behind", async () => {
		await writeTool().execute("c", { path: "one.txt", content: "1" });
		await writeTool().execute("c", { path: "one.txt", content: "2" });
		expect(await readdir(folder)).toEqual(["one.txt"]);
	});

	it("writes an empty file and a large one", async () => {
		await writeTool().execute("c", { path: "empty.txt", content: "" });
		const large = "0123456789abcdef\n".repeat(600_000);
		const result = await writeTool().execute("c", { path: "large.txt", content: large });
		expect(await readFile(join(folder, "empty.txt"), "utf8")).toBe("");
		expect(await readFile(join(folder, "large.txt"), "utf8")).toBe(large);
		expect(result.structuredContent).toMatchObject({ bytes: large.length });
	});

	it("writes through a symbolic link to its target, keeping the link", async () => {
		const target = join(folder, "target.txt");
		await writeFile(target, "old");
		await symlink(target, join(folder, "link.txt"));
		await writeTool().execute("c", { path: "link.txt", content: "new" });
		expect(await readFile(target, "utf8")).toBe("new");
		expect((await readdir(folder)).sort()).toEqual(["link.txt", "target.txt"]);
	});

	it("resolves ~ to the home folder and strips a leading @", async () => {
		await writeTool().execute("c", { path: "@at.txt", content: "at" });
		expect(await readFile(join(folder, "at.txt"), "utf8")).toBe("at");
		const fromHome = relative(homedir(), join(folder, "home.txt"));
		await writeTool().execute("c", { path: `~/${fromHome}`, content: "home" });
		expect(await readFile(join(folder, "home.txt"), "utf8")).toBe("home");
	});

	it("refuses a folder path with a clear error and leaves the folder as it was", async () => {
		await mkdir(join(folder, "sub"));
		await writeFile(join(folder, "sub", "inside.txt"), "x");
		await expect(writeTool().execute("c", { path: "sub", content: "y" })).rejects.toThrow(
			"Cannot write sub: it is a folder; give the path of a file inside it.",
		);
		expect(await readdir(join(folder, "sub"))).toEqual(["inside.txt"]);
		expect(await readdir(folder)).toEqual(["sub"]);
	});

	it("says when a part of the folder path is a file, leaving nothing behind", async () => {
		await writeFile(join(folder, "plain"), "x");
		await expect(writeTool().execute("c", { path: "plain/deeper/file.txt", content: "y" })).rejects.toThrow(
			/Cannot write plain\/deeper\/file\.txt: a part of its folder path is a file/,
		);
		expect(await readdir(folder)).toEqual(["plain"]);
		expect(await readFile(join(folder, "plain"), "utf8")).toBe("x");
	});

	it("keeps the old content when the write fails, with no temporary file left", async () => {
		const path = join(folder, "kept.txt");
		await writeFile(path, "old");
		const operations: WriteOperations = {
			...localWriteOperations,
			// Fails after a temporary file was created: renaming a file over a non-empty folder is refused.
			writeFileAtomic: async (_target, data) => {
				await mkdir(join(folder, "blocker", "full"), { recursive: true });
				await localWriteOperations.writeFileAtomic(join(folder, "blocker"), data);
			},
		};
		await expect(writeTool(operations).execute("c", { path: "kept.txt", content: "new" })).rejects.toThrow(
			/Cannot write kept\.txt/,
		);
		expect(await readFile(path, "utf8")).toBe("old");
		expect((await readdir(folder)).sort()).toEqual(["blocker", "kept.txt"]);
		expect(await readdir(join(folder, "blocker"))).toEqual(["full"]);
	});

	it("throws Operation aborted for an aborted signal and writes nothing", async () => {
		await expect(writeTool().execute("c", { path: "no.txt", content: "x" }, AbortSignal.abort())).rejects.toThrow(
			"Operation aborted",
		);
		expect(await readdir(folder)).toEqual([]);
	});

	it("does all its I/O through the given operations", async () => {
		const files = new Map<string, string>();
		const folders: string[] = [];
		const operations: WriteOperations = {
			mkdir: async (path) => {
				folders.push(path);
			},
			writeFileAtomic: async (path, data) => {
				files.set(path, Buffer.from(data).toString("utf8"));
			},
			stat: async (path) => (files.has(path) ? { isDirectory: false } : undefined),
		};
		const tool = writeTool(operations);
		const first = await tool.execute("c", { path: "remote/x.txt", content: "one" });
		const second = await tool.execute("c", { path: "remote/x.txt", content: "two" });
		const path = join(folder, "remote/x.txt");
		expect(files.get(path)).toBe("two");
		expect(folders).toEqual([dirname(path)]);
		expect(first.structuredContent).toMatchObject({ created: true });
		expect(second.structuredContent).toMatchObject({ created: false });
		expect(await readdir(folder)).toEqual([]);
	});

	it("renders the call on one line and the result in the success colour", async () => {
		const definition = createWriteToolDefinition(folder);
		expect(definition.renderCall?.({ path: "a.txt", content: "1\n2\n3" }, plainTheme)).toBe("write a.txt (3 lines)");
		const result = await wrapToolDefinition(definition).execute("c", { path: "a.txt", content: "x" });
		const theme = { ...plainTheme, success: (text: string) => `[${text}]` };
		expect(definition.renderResult?.(result, { expanded: false, isPartial: false }, theme)).toBe(
			"[Wrote 1 byte to a.txt (created).]",
		);
	});
});
