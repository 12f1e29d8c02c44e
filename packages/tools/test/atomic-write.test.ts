import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../src/workspace/local/atomic-write.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-atomic-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
	it("creates a new file with the usual permissions (umask applied)", async () => {
		const path = join(folder, "new.txt");
		await writeFileAtomic(path, "hello");
		expect(await readFile(path, "utf8")).toBe("hello");
		const umask = process.umask();
		expect((await stat(path)).mode & 0o777).toBe(0o666 & ~umask);
		expect(await readdir(folder)).toEqual(["new.txt"]);
	});

	it("replaces an existing file, keeping its exact permission bits", async () => {
		for (const mode of [0o755, 0o600, 0o640]) {
			const path = join(folder, `mode-${mode.toString(8)}`);
			await writeFile(path, "old");
			await chmod(path, mode);
			await writeFileAtomic(path, new Uint8Array([110, 101, 119]));
			expect(await readFile(path, "utf8")).toBe("new");
			expect((await stat(path)).mode & 0o7777).toBe(mode);
		}
	});

	it.skipIf(process.getuid?.() !== 0)("keeps the owner of a file owned by someone else (as root)", async () => {
		const path = join(folder, "owned.txt");
		await writeFile(path, "old");
		await chown(path, 1234, 2345);
		await writeFileAtomic(path, "new");
		const info = await stat(path);
		expect([info.uid, info.gid]).toEqual([1234, 2345]);
	});

	it("rewrites the target of a symbolic link and keeps the link", async () => {
		const target = join(folder, "target.txt");
		await writeFile(target, "old");
		await symlink("target.txt", join(folder, "link.txt"));
		await writeFileAtomic(join(folder, "link.txt"), "new");
		expect(await readFile(target, "utf8")).toBe("new");
		expect((await readdir(folder)).sort()).toEqual(["link.txt", "target.txt"]);
	});

	it("flushes to disk when asked", async () => {
		const path = join(folder, "synced.txt");
		await writeFileAtomic(path, "durable", { fsync: true });
		expect(await readFile(path, "utf8")).toBe("durable");
		expect(await readdir(folder)).toEqual(["synced.txt"]);
	});

	it("removes the temporary file when the rename fails", async () => {
		await mkdir(join(folder, "occupied"));
		await writeFile(join(folder, "occupied", "keep.txt"), "x");
		await expect(writeFileAtomic(join(folder, "occupied"), "data")).rejects.toMatchObject({
			code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
		});
		expect(await readdir(folder)).toEqual(["occupied"]);
		expect(await readdir(join(folder, "occupied"))).toEqual(["keep.txt"]);
	});

	it("rejects when the folder is missing or a part of it is a file, creating nothing", async () => {
		await expect(writeFileAtomic(join(folder, "missing", "a.txt"), "x")).rejects.toMatchObject({ code: "ENOENT" });
		await writeFile(join(folder, "plain"), "x");
		await expect(writeFileAtomic(join(folder, "plain", "a.txt"), "x")).rejects.toMatchObject({ code: "ENOTDIR" });
		expect(await readdir(folder)).toEqual(["plain"]);
	});

	it("never lets a reader see a half-written file", async () => {
		const path = join(folder, "busy.txt");
		const first = "a".repeat(2_000_000);
		const second = "b".repeat(1_000_000);
		await writeFile(path, first);
		let writing = true;
		const seen = new Set<string>();
		const reader = (async () => {
			while (writing) {
				const content = await readFile(path, "utf8");
				seen.add(content === first ? "first" : content === second ? "second" : `torn (${content.length})`);
			}
		})();
		for (let round = 0; round < 10; round++) await writeFileAtomic(path, round % 2 === 0 ? second : first);
		writing = false;
		await reader;
		expect([...seen].filter((entry) => entry.startsWith("torn"))).toEqual([]);
	});
});
