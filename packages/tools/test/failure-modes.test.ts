import { execFileSync } from "node:child_process";
import { chmod, link, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../src/edit/edit.js";
import { createFindToolDefinition } from "../src/find/find.js";
import { createGrepToolDefinition } from "../src/grep/grep.js";
import { createLsToolDefinition } from "../src/ls/ls.js";
import { createReadToolDefinition } from "../src/read/read.js";
import { createWriteToolDefinition } from "../src/write/write.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-failure-modes-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

function tools() {
	return {
		read: wrapToolDefinition(createReadToolDefinition(folder)),
		edit: wrapToolDefinition(createEditToolDefinition(folder)),
		write: wrapToolDefinition(createWriteToolDefinition(folder)),
		ls: wrapToolDefinition(createLsToolDefinition(folder)),
		grep: wrapToolDefinition(createGrepToolDefinition(folder)),
		find: wrapToolDefinition(createFindToolDefinition(folder)),
	};
}

/** The message a call fails with. */
async function failure(call: Promise<unknown>): Promise<string> {
	try {
		await call;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
	throw new Error("the call succeeded");
}

const huge = `${"a".repeat(5 * 1024 * 1024)}Z`;

describe("errors stay short whatever the arguments", () => {
	it("every file tool fails on a 5 MB path with at most 2,000 characters, start and end kept", async () => {
		const { read, edit, write, ls, grep, find } = tools();
		const messages = [
			await failure(read.execute("c", { path: huge })),
			await failure(edit.execute("c", { path: huge, edits: [{ oldText: "a", newText: "b" }] })),
			await failure(write.execute("c", { path: huge, content: "x" })),
			await failure(ls.execute("c", { path: huge })),
			await failure(grep.execute("c", { pattern: "a", path: huge })),
			await failure(find.execute("c", { pattern: "*", path: huge })),
		];
		for (const message of messages) {
			expect(message.length).toBeLessThanOrEqual(2000);
			expect(message).toMatch(/characters elided/);
			expect(message).toMatch(/aZ|a'|a\./);
		}
	});

	it("a 5 MB string passed as offset or limit, or as a pattern, gives a short error", async () => {
		await writeFile(join(folder, "a.txt"), "text\n");
		const { read, ls, grep, find } = tools();
		const messages = [
			await failure(read.execute("c", { path: "a.txt", offset: huge as unknown as number })),
			await failure(read.execute("c", { path: "a.txt", limit: huge as unknown as number })),
			await failure(ls.execute("c", { limit: huge as unknown as number })),
			await failure(find.execute("c", { pattern: `/${huge}` })),
		];
		for (const message of messages) {
			expect(message.length).toBeLessThanOrEqual(2000);
			expect(message).toMatch(/characters elided/);
		}
		expect(messages[0]).toMatch(/^offset must be a whole number/);
		const byGrep = await failure(grep.execute("c", { pattern: `(${huge}` }));
		expect(byGrep.length).toBeLessThanOrEqual(2000);
	});
});

describe("binary files", () => {
	it("reading a binary file fails (an isError result) with the helpful text", async () => {
		const bytes = Buffer.alloc(12_600);
		for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 7) % 256;
		await writeFile(join(folder, "data.bin"), bytes);
		const message = await failure(tools().read.execute("c", { path: "data.bin" }));
		expect(message).toMatch(/^Binary file \(12\.3 KB\) — not shown: .*data\.bin\. Inspect it with bash/);
	});
});

describe("read-only files", () => {
	it("write refuses a 0444 file exactly as edit does (root included), and the file keeps its content", async () => {
		const path = join(folder, "locked.txt");
		await writeFile(path, "keep me\n");
		await chmod(path, 0o444);
		const { edit, write } = tools();
		const byWrite = await failure(write.execute("c", { path: "locked.txt", content: "replaced\n" }));
		const byEdit = await failure(
			edit.execute("c", { path: "locked.txt", edits: [{ oldText: "keep", newText: "lose" }] }),
		);
		expect(byWrite).toBe(byEdit);
		expect(byWrite).toMatch(/^Permission denied: locked\.txt /);
		expect(byWrite).toMatch(/chmod u\+w/);
		expect(await readFile(path, "utf8")).toBe("keep me\n");
		expect((await stat(path)).mode & 0o777).toBe(0o444);
		expect(await readdir(folder)).toEqual(["locked.txt"]);
	});
});

describe("links", () => {
	it("write through a dangling symbolic link creates its target and keeps the link", async () => {
		await symlink("real.txt", join(folder, "alias.txt"));
		await tools().write.execute("c", { path: "alias.txt", content: "made\n" });
		expect(await readlink(join(folder, "alias.txt"))).toBe("real.txt");
		expect(await readFile(join(folder, "real.txt"), "utf8")).toBe("made\n");
	});

	it("write and edit keep hard links: both names see the change", async () => {
		await writeFile(join(folder, "one.txt"), "first version\n");
		await link(join(folder, "one.txt"), join(folder, "two.txt"));
		const { edit, write } = tools();
		await write.execute("c", { path: "two.txt", content: "second version\n" });
		expect(await readFile(join(folder, "one.txt"), "utf8")).toBe("second version\n");
		await edit.execute("c", { path: "one.txt", edits: [{ oldText: "second", newText: "third" }] });
		expect(await readFile(join(folder, "two.txt"), "utf8")).toBe("third version\n");
		expect((await stat(join(folder, "one.txt"))).nlink).toBe(2);
	});
});

describe("named pipes and devices", () => {
	it("edit and write refuse a FIFO at once (nothing waits for a writer) and leave it a FIFO", async () => {
		const fifo = join(folder, "pipe");
		execFileSync("mkfifo", [fifo]);
		const { edit, write } = tools();
		const started = performance.now();
		expect(await failure(edit.execute("c", { path: "pipe", edits: [{ oldText: "a", newText: "b" }] }))).toBe(
			"pipe is not a regular file (a device, socket or named pipe); edit only changes regular files.",
		);
		expect(await failure(write.execute("c", { path: "pipe", content: "x" }))).toBe(
			"pipe is not a regular file (a device, socket or named pipe); write only creates or replaces regular files.",
		);
		// Both answered without blocking on the pipe (a blocked open would never return).
		expect(performance.now() - started).toBeLessThan(10_000);
		expect((await stat(fifo)).isFIFO()).toBe(true);
	});
});
