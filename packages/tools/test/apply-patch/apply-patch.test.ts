import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApplyPatchToolDefinition } from "../../src/apply-patch/apply-patch.js";
import type { ApplyPatchToolDetails } from "../../src/apply-patch/types.js";
import { createEditToolDefinition } from "../../src/edit/edit.js";
import { createLocalWorkspace } from "../../src/workspace/local/local-workspace.js";
import type { Workspace } from "../../src/workspace/types.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-apply-patch-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

function patchTool(workspace: string | Workspace = folder) {
	return wrapToolDefinition(createApplyPatchToolDefinition(workspace));
}

async function applyPatch(body: string, workspace: string | Workspace = folder) {
	const result = await patchTool(workspace).execute("call_1", { input: `*** Begin Patch\n${body}\n*** End Patch` });
	return { text: result.content[0]?.type === "text" ? result.content[0].text : "", result };
}

function detailsOf(result: { details?: unknown }): ApplyPatchToolDetails {
	return result.details as ApplyPatchToolDetails;
}

async function file(name: string, content: string | Buffer): Promise<string> {
	const path = join(folder, name);
	await mkdir(join(path, ".."), { recursive: true });
	await writeFile(path, content);
	return path;
}

/** Every file under the folder with its bytes, to show that a refused patch changed nothing at all. */
async function snapshot(root = folder): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	const walk = async (current: string): Promise<void> => {
		for (const entry of await readdir(current, { withFileTypes: true })) {
			const path = join(current, entry.name);
			if (entry.isDirectory()) {
				files[`${relative(root, path)}/`] = "";
				await walk(path);
			} else files[relative(root, path)] = (await readFile(path)).toString("base64");
		}
	};
	await walk(root);
	return files;
}

describe("apply_patch: applying", () => {
	it("adds, updates, moves and deletes in one call, with Codex's summary and a unified diff per file", async () => {
		await file("modify.txt", "line1\nline2\nline3\n");
		await file("old/name.txt", "old content\n");
		await file("delete.txt", "obsolete\n");
		const { text, result } = await applyPatch(
			[
				"*** Add File: nested/new.txt",
				"+created",
				"*** Update File: modify.txt",
				"@@",
				" line1",
				"-line2",
				"+changed",
				"*** Update File: old/name.txt",
				"*** Move to: renamed/name.txt",
				"@@",
				"-old content",
				"+new content",
				"*** Delete File: delete.txt",
			].join("\n"),
		);
		expect(text).toBe(
			"Success. Updated the following files:\nA nested/new.txt\nM modify.txt\nM renamed/name.txt\nD delete.txt",
		);
		expect(await readFile(join(folder, "nested/new.txt"), "utf8")).toBe("created\n");
		expect(await readFile(join(folder, "modify.txt"), "utf8")).toBe("line1\nchanged\nline3\n");
		expect(await readFile(join(folder, "renamed/name.txt"), "utf8")).toBe("new content\n");
		await expect(stat(join(folder, "old/name.txt"))).rejects.toThrow(/ENOENT/);
		await expect(stat(join(folder, "delete.txt"))).rejects.toThrow(/ENOENT/);
		expect(detailsOf(result).files).toEqual([
			{
				path: "nested/new.txt",
				kind: "add",
				diff: "--- nested/new.txt\n+++ nested/new.txt\n@@ -0,0 +1,1 @@\n+created",
			},
			{
				path: "modify.txt",
				kind: "update",
				diff: "--- modify.txt\n+++ modify.txt\n@@ -1,3 +1,3 @@\n line1\n-line2\n+changed\n line3",
			},
			{
				path: "old/name.txt",
				kind: "move",
				movePath: "renamed/name.txt",
				diff: "--- old/name.txt\n+++ renamed/name.txt\n@@ -1,1 +1,1 @@\n-old content\n+new content",
			},
			{ path: "delete.txt", kind: "delete", diff: "--- delete.txt\n+++ delete.txt\n@@ -1,1 +0,0 @@\n-obsolete" },
		]);
		expect(result.structuredContent).toEqual({
			files: [
				{ path: join(folder, "nested/new.txt"), kind: "add" },
				{ path: join(folder, "modify.txt"), kind: "update" },
				{ path: join(folder, "old/name.txt"), kind: "move", movePath: join(folder, "renamed/name.txt") },
				{ path: join(folder, "delete.txt"), kind: "delete" },
			],
		});
	});

	it("uses @@ context lines to place hunks, in file order, and inserts a pure addition after its @@ line", async () => {
		await file("a.py", "def f():\n    return 1\n\ndef g():\n    return 1\n");
		await applyPatch(
			["*** Update File: a.py", "@@ def g():", "-    return 1", "+    return 2", "@@ def g():"]
				.join("\n")
				.replace("\n@@ def g():", "\n@@ def g():"),
		).catch(() => undefined);
		expect(await readFile(join(folder, "a.py"), "utf8")).toBe("def f():\n    return 1\n\ndef g():\n    return 1\n");
		await applyPatch(["*** Update File: a.py", "@@ def g():", "-    return 1", "+    return 2"].join("\n"));
		expect(await readFile(join(folder, "a.py"), "utf8")).toBe("def f():\n    return 1\n\ndef g():\n    return 2\n");
		// Codex puts an addition without old lines at the end of the file even with an @@ line; Gantry
		// puts it right after the @@ line, where the model said it goes.
		await applyPatch(["*** Update File: a.py", "@@ def f():", "+    # first"].join("\n"));
		expect(await readFile(join(folder, "a.py"), "utf8")).toBe(
			"def f():\n    # first\n    return 1\n\ndef g():\n    return 2\n",
		);
	});

	it("matches context loosely as Codex does (trailing whitespace, then indentation, then typographic punctuation), keeping the file's context lines", async () => {
		// Codex writes the patch's context lines over the loosely matched ones (losing the indentation);
		// Gantry keeps the file's own text for them and changes only the removed and added lines.
		await file("a.txt", "alpha   \n    beta\nsay \u201chello\u201d \u2014 now\n");
		const { text } = await applyPatch(
			["*** Update File: a.txt", " alpha", " beta", '-say "hello" - now', "+said it"].join("\n"),
		);
		expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("alpha   \n    beta\nsaid it\n");
		expect(text).toContain("1 hunk matched only after ignoring whitespace at line ends or typographic punctuation");
	});

	it("applies a later section to what an earlier one did to the same file", async () => {
		await file("a.txt", "one\ntwo\n");
		await applyPatch(
			["*** Update File: a.txt", "-one", "+uno", "*** Update File: a.txt", "-uno", "+eins", "*** Delete File: b.txt"]
				.join("\n")
				.replace("\n*** Delete File: b.txt", ""),
		);
		expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("eins\ntwo\n");
	});

	it("unwraps a heredoc and refuses an empty patch", async () => {
		await file("a.txt", "x\n");
		const tool = patchTool();
		await tool.execute("c", {
			input: "<<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n-x\n+y\n*** End Patch\nEOF\n",
		});
		expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("y\n");
		await expect(tool.execute("c", { input: "*** Begin Patch\n*** End Patch" })).rejects.toThrow(/names no file/);
	});
});

describe("apply_patch: the guarantees edit and write give", () => {
	it("keeps CRLF line endings, also on the lines it adds", async () => {
		const path = await file("win.txt", "one\r\ntwo\r\nthree\r\n");
		await applyPatch(["*** Update File: win.txt", " one", "-two", "+2", "+2.5"].join("\n"));
		expect(await readFile(path, "utf8")).toBe("one\r\n2\r\n2.5\r\nthree\r\n");
	});

	it("keeps a byte order mark and leaves untouched bytes (mixed endings, no final newline) as they were", async () => {
		const path = await file("bom.txt", Buffer.from("\uFEFFa\r\nb\nc", "utf8"));
		await applyPatch(["*** Update File: bom.txt", "-a", "+A"].join("\n"));
		expect((await readFile(path)).toString("utf8")).toBe("\uFEFFA\r\nb\nc");
	});

	it("keeps the file's mode, set-id bits and owner", async () => {
		const path = await file("run.sh", "#!/bin/sh\necho hi\n");
		// Owner first: a chown clears the set-id bits.
		if (process.getuid?.() === 0) await chown(path, 1234, 5678);
		await chmod(path, 0o4755);
		await applyPatch(["*** Update File: run.sh", "-echo hi", "+echo hello"].join("\n"));
		const after = await stat(path);
		expect(after.mode & 0o7777).toBe(0o4755);
		if (process.getuid?.() === 0) expect([after.uid, after.gid]).toEqual([1234, 5678]);
		expect(await readFile(path, "utf8")).toBe("#!/bin/sh\necho hello\n");
	});

	it("finds look-alike names: a no-break space typed as a space, decomposed accents typed composed", async () => {
		const nbsp = await file("my\u00A0notes.txt", "a\n");
		const nfd = await file("re\u0301sume\u0301.txt", "b\n");
		await applyPatch(
			["*** Update File: my notes.txt", "-a", "+A", "*** Update File: r\u00e9sum\u00e9.txt", "-b", "+B"].join("\n"),
		);
		expect(await readFile(nbsp, "utf8")).toBe("A\n");
		expect(await readFile(nfd, "utf8")).toBe("B\n");
		expect((await readdir(folder)).sort()).toEqual(["my\u00A0notes.txt", "re\u0301sume\u0301.txt"].sort());
	});

	it("refuses binary and non-UTF-8 files, but deletes them", async () => {
		await file("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
		await file("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
		await expect(applyPatch("*** Update File: image.png\n-x\n+y")).rejects.toThrow(/binary file/);
		await expect(applyPatch("*** Update File: latin1.txt\n-x\n+y")).rejects.toThrow(/not valid UTF-8/);
		const { result } = await applyPatch("*** Delete File: image.png");
		const [deleted] = detailsOf(result).files;
		expect(deleted?.diff).toContain("-(binary file, 7 bytes)");
		await expect(stat(join(folder, "image.png"))).rejects.toThrow(/ENOENT/);
	});

	it("waits in the file mutation queue: an edit and a patch of the same file at once both apply", async () => {
		const path = await file("shared.txt", "one\ntwo\n");
		const edit = wrapToolDefinition(createEditToolDefinition(folder));
		await Promise.all([
			edit.execute("e", { path: "shared.txt", edits: [{ oldText: "one", newText: "uno" }] }),
			patchTool().execute("p", { input: "*** Begin Patch\n*** Update File: shared.txt\n-two\n+dos\n*** End Patch" }),
		]);
		expect(await readFile(path, "utf8")).toBe("uno\ndos\n");
	});
});

describe("apply_patch: paths outside the working folder are refused before anything is read", () => {
	it.each([
		["a parent folder", "../escape.txt"],
		["an absolute path", "/etc/gantry-escape.txt"],
		["the home folder", "~/gantry-escape.txt"],
	])("refuses %s", async (_what, path) => {
		await file("inside.txt", "x\n");
		const before = await snapshot();
		await expect(applyPatch(`*** Update File: inside.txt\n-x\n+y\n*** Add File: ${path}\n+owned`)).rejects.toThrow(
			/outside the working folder/,
		);
		expect(await snapshot()).toEqual(before);
	});

	it("refuses a path that leads out through a link, a dangling link included", async () => {
		const outside = await mkdtemp(join(tmpdir(), "gantry-apply-patch-outside-"));
		try {
			await writeFile(join(outside, "secret.txt"), "secret\n");
			await symlink(outside, join(folder, "docs"));
			await symlink(join(outside, "planted.txt"), join(folder, "dangling.txt"));
			await expect(applyPatch("*** Update File: docs/secret.txt\n-secret\n+owned")).rejects.toThrow(
				/leads outside the working folder through a link/,
			);
			await expect(applyPatch("*** Add File: docs/new.txt\n+owned")).rejects.toThrow(/through a link/);
			await expect(applyPatch("*** Add File: dangling.txt\n+owned")).rejects.toThrow(/through a link/);
			expect(await readdir(outside)).toEqual(["secret.txt"]);
			expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("secret\n");
		} finally {
			await rm(outside, { recursive: true, force: true });
		}
	});

	it("allows them with allowOutsideWorkingFolder", async () => {
		const outside = await mkdtemp(join(tmpdir(), "gantry-apply-patch-outside-"));
		try {
			const tool = wrapToolDefinition(createApplyPatchToolDefinition(folder, { allowOutsideWorkingFolder: true }));
			await tool.execute("c", {
				input: `*** Begin Patch\n*** Add File: ${join(outside, "a.txt")}\n+ok\n*** End Patch`,
			});
			expect(await readFile(join(outside, "a.txt"), "utf8")).toBe("ok\n");
		} finally {
			await rm(outside, { recursive: true, force: true });
		}
	});
});

describe("apply_patch: all or nothing", () => {
	it("writes nothing when the third file's hunk does not apply, and says which file, hunk and line, and what it expected", async () => {
		await file("one.txt", "1\n");
		await file("two.txt", "2\n");
		await file("three.txt", "alpha\nbeta\ngamma\n");
		const before = await snapshot();
		const error = await applyPatch(
			[
				"*** Update File: one.txt",
				"-1",
				"+uno",
				"*** Add File: new/four.txt",
				"+4",
				"*** Update File: two.txt",
				"-2",
				"+dos",
				"*** Update File: three.txt",
				"@@",
				" alpha",
				"-beta",
				"+BETA",
				"@@",
				" delta",
				"-epsilon",
				"+EPSILON",
			].join("\n"),
		).catch((caught: Error) => caught);
		expect(await snapshot()).toEqual(before);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(
			'three.txt, hunk 2 (patch line 15): expected to find these lines from line 3 of the file on (not even ignoring whitespace at line ends and typographic punctuation):\n     delta\n    -epsilon\nIts first line "delta" is not in the file at all. Read the file again and copy the context and removed lines exactly.',
		);
	});

	it("names an @@ line that is not there, and says when hunks are out of file order", async () => {
		await file("a.txt", "first\nsecond\nthird\n");
		await expect(applyPatch("*** Update File: a.txt\n@@ missing()\n-x\n+y")).rejects.toThrow(
			'a.txt, hunk 1 (patch line 3): its @@ line "missing()" was not found in the file from line 1 on.',
		);
		await expect(applyPatch("*** Update File: a.txt\n@@\n-third\n+3\n@@\n-first\n+1")).rejects.toThrow(
			/hunk 2 .*Its first line is at line 1, before the place the earlier hunks reached \(line 4\); hunks must come in file order/s,
		);
		expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("first\nsecond\nthird\n");
	});

	it("writes nothing when a file to update or delete is missing, or is a folder", async () => {
		await file("a.txt", "x\n");
		await mkdir(join(folder, "dir"));
		const before = await snapshot();
		await expect(applyPatch("*** Update File: a.txt\n-x\n+y\n*** Delete File: missing.txt")).rejects.toThrow(
			"Cannot delete missing.txt (patch line 5): the file does not exist.",
		);
		await expect(applyPatch("*** Update File: a.txt\n-x\n+y\n*** Delete File: dir")).rejects.toThrow(/dir is a folder/);
		expect(await snapshot()).toEqual(before);
	});

	it("refuses a read-only file before writing any other", async () => {
		await file("a.txt", "x\n");
		const locked = await file("locked.txt", "y\n");
		await chmod(locked, 0o444);
		const before = await snapshot();
		await expect(applyPatch("*** Update File: a.txt\n-x\n+X\n*** Update File: locked.txt\n-y\n+Y")).rejects.toThrow(
			/Permission denied: locked\.txt may not be written.*Nothing was written/s,
		);
		expect(await snapshot()).toEqual(before);
	});

	it("undoes what it wrote when a later write fails (a folder path that is a file)", async () => {
		await file("a.txt", "x\n");
		await file("plain", "I am a file\n");
		const before = await snapshot();
		const error = await applyPatch("*** Update File: a.txt\n-x\n+X\n*** Add File: plain/inside.txt\n+no").catch(
			(caught: Error) => caught,
		);
		expect((error as Error).message).toMatch(
			/^Could not apply the patch: writing plain\/inside\.txt failed \(.*ENOTDIR.*\); the 1 file already changed was put back as they were\.$/,
		);
		expect(await snapshot()).toEqual(before);
	});

	it("undoes writes, created folders and deletions when the disk fills up midway", async () => {
		await file("a.txt", "x\n");
		await file("gone.txt", "keep me\n");
		await file("gone-too.txt", "me too\n");
		const before = await snapshot();
		const local = createLocalWorkspace(folder);
		let unlinks = 0;
		const full: Workspace = {
			...local,
			fs: {
				...local.fs,
				async unlink(path) {
					if (++unlinks === 2) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
					return local.fs.unlink(path);
				},
			},
		};
		const error = await applyPatch(
			"*** Update File: a.txt\n-x\n+X\n*** Add File: deep/er/new.txt\n+n\n*** Delete File: gone.txt\n*** Delete File: gone-too.txt",
			full,
		).catch((caught: Error) => caught);
		expect((error as Error).message).toBe(
			"Could not apply the patch: writing gone-too.txt failed (ENOSPC: no space left on device); the 3 files already changed were put back as they were.",
		);
		expect(await snapshot()).toEqual(before);
	});
});
