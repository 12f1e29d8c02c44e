import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../src/edit/edit.js";
import { createFindToolDefinition } from "../src/find/find.js";
import { createGrepToolDefinition } from "../src/grep/grep.js";
import { createLsToolDefinition } from "../src/ls/ls.js";
import { createReadToolDefinition } from "../src/read/read.js";
import { createLocalWorkspace } from "../src/workspace/local/local-workspace.js";
import type { Workspace, WorkspaceFileSystem } from "../src/workspace/types.js";
import { createWriteToolDefinition } from "../src/write/write.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-look-alike-tools-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

function textOf(result: { content: { type: string; text?: string }[] }): string {
	return result.content.map((part) => part.text ?? "").join("");
}

const screenshot = "Screenshot 2024-01-02 at 10.00.00\u202FAM.png";
const typedScreenshot = "Screenshot 2024-01-02 at 10.00.00 AM.png";

describe("look-alike names, for every tool that takes an existing path", () => {
	it("read: no-break space, decomposed accents, curly apostrophe, screenshot's narrow space", async () => {
		await writeFile(join(folder, "my\u00A0notes.txt"), "nbsp\n");
		await writeFile(join(folder, "re\u0301sume\u0301.txt"), "nfd\n");
		await writeFile(join(folder, "Capture d\u2019\u00e9cran.txt"), "curly\n");
		await writeFile(join(folder, `${screenshot}.txt`), "screenshot\n");
		const read = wrapToolDefinition(createReadToolDefinition(folder));
		expect(textOf(await read.execute("c", { path: "my notes.txt" }))).toMatch(/^nbsp/);
		expect(textOf(await read.execute("c", { path: "r\u00e9sum\u00e9.txt" }))).toMatch(/^nfd/);
		expect(textOf(await read.execute("c", { path: "Capture d'\u00e9cran.txt" }))).toMatch(/^curly/);
		expect(textOf(await read.execute("c", { path: `${typedScreenshot}.txt` }))).toMatch(/^screenshot/);
	});

	it("edit changes the look-alike file and creates no new one", async () => {
		await writeFile(join(folder, "Capture d\u2019\u00e9cran.md"), "old line\n");
		const edit = wrapToolDefinition(createEditToolDefinition(folder));
		await edit.execute("c", { path: "Capture d'\u00e9cran.md", edits: [{ oldText: "old", newText: "new" }] });
		expect(await readFile(join(folder, "Capture d\u2019\u00e9cran.md"), "utf8")).toBe("new line\n");
		expect(await readdir(folder)).toEqual(["Capture d\u2019\u00e9cran.md"]);
	});

	it("write overwrites the existing look-alike file instead of creating a second one", async () => {
		await writeFile(join(folder, "my\u00A0notes.txt"), "old\n");
		const write = wrapToolDefinition(createWriteToolDefinition(folder));
		const result = await write.execute("c", { path: "my notes.txt", content: "new\n" });
		expect(result.structuredContent).toMatchObject({ created: false, path: join(folder, "my\u00A0notes.txt") });
		expect(await readdir(folder)).toEqual(["my\u00A0notes.txt"]);
		expect(await readFile(join(folder, "my\u00A0notes.txt"), "utf8")).toBe("new\n");
	});

	it("ls, grep and find take a look-alike folder as their path", async () => {
		const shots = join(folder, "caf\u00e9 shots".normalize("NFD"));
		await mkdir(shots);
		await writeFile(join(shots, "a.txt"), "needle\n");
		const ls = wrapToolDefinition(createLsToolDefinition(folder));
		const grep = wrapToolDefinition(createGrepToolDefinition(folder));
		const find = wrapToolDefinition(createFindToolDefinition(folder));
		expect(textOf(await ls.execute("c", { path: "caf\u00e9 shots" }))).toBe("a.txt");
		expect(textOf(await grep.execute("c", { pattern: "needle", path: "caf\u00e9 shots" }))).toMatch(/a\.txt:1: needle/);
		expect(textOf(await find.execute("c", { pattern: "*.txt", path: "caf\u00e9 shots" }))).toBe("a.txt");
	});

	it("a leading @ is dropped only when no file of the exact name exists", async () => {
		await writeFile(join(folder, "@scope.txt"), "with at\n");
		await writeFile(join(folder, "scope.txt"), "without at\n");
		await writeFile(join(folder, "plain.txt"), "plain\n");
		const read = wrapToolDefinition(createReadToolDefinition(folder));
		expect(textOf(await read.execute("c", { path: "@scope.txt" }))).toMatch(/^with at/);
		expect(textOf(await read.execute("c", { path: "@plain.txt" }))).toMatch(/^plain/);
		const write = wrapToolDefinition(createWriteToolDefinition(folder));
		await write.execute("c", { path: "@scope.txt", content: "rewritten\n" });
		expect(await readFile(join(folder, "@scope.txt"), "utf8")).toBe("rewritten\n");
		expect(await readFile(join(folder, "scope.txt"), "utf8")).toBe("without at\n");
	});

	it("a missing name still says File not found", async () => {
		const read = wrapToolDefinition(createReadToolDefinition(folder));
		await expect(read.execute("c", { path: "my notes.txt" })).rejects.toThrow(
			`File not found: ${join(folder, "my notes.txt")}`,
		);
	});
});

/** A workspace whose host paths live under `/host`, mapped onto `root`: only its own `fs` can see them. */
function mappedWorkspace(root: string): Workspace {
	const local = createLocalWorkspace(root);
	const toLocal = (path: string) => (path === "/host" ? root : path.replace(/^\/host\//, `${root}/`));
	const fs: WorkspaceFileSystem = {
		...local.fs,
		stat: (path) => local.fs.stat(toLocal(path)),
		lstat: (path) => local.fs.lstat(toLocal(path)),
		readdir: (path) => local.fs.readdir(toLocal(path)),
		open: (path) => local.fs.open(toLocal(path)),
		readFile: (path) => local.fs.readFile(toLocal(path)),
	};
	return {
		...local,
		cwd: "/host",
		label: "mapped",
		isLocal: false,
		fs,
		resolvePath: (path) => (path.startsWith("/") ? path : `/host/${path}`),
	};
}

describe("look-alike names through the workspace's own file system", () => {
	it("read and ls resolve the look-alike on the workspace, not on this machine's paths", async () => {
		await mkdir(join(folder, "l\u2019\u00e9t\u00e9"));
		await writeFile(join(folder, "l\u2019\u00e9t\u00e9", screenshot), "not really a png\n");
		const workspace = mappedWorkspace(folder);
		const read = wrapToolDefinition(createReadToolDefinition(workspace));
		const ls = wrapToolDefinition(createLsToolDefinition(workspace));
		const result = await read.execute("c", { path: `l'\u00e9t\u00e9/${typedScreenshot}` });
		expect(textOf(result)).toMatch(/^not really a png/);
		expect(result.details?.path).toBe(`/host/l\u2019\u00e9t\u00e9/${screenshot}`);
		expect(textOf(await ls.execute("c", { path: "l'\u00e9t\u00e9" }))).toBe(screenshot);
	});
});
