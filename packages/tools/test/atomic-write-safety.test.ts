import { spawn } from "node:child_process";
import { watch } from "node:fs";
import {
	chmod,
	chown,
	link,
	mkdir,
	mkdtemp,
	readdir,
	readFile,
	readlink,
	rm,
	stat,
	symlink,
	writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../src/workspace/local/atomic-write.js";
import { transpileForChild } from "./helpers/transpile-for-child.js";

const isRoot = process.getuid?.() === 0;
const sourceRoot = resolve(import.meta.dirname, "../src");

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-atomic-safety-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe("writeFileAtomic: owner, mode and read-only files", () => {
	it.skipIf(!isRoot)("keeps 6755 on a file owned by another user (owner first, then mode)", async () => {
		const path = join(folder, "tool");
		await writeFile(path, "old");
		await chown(path, 1234, 2345);
		await chmod(path, 0o6755);
		await writeFileAtomic(path, "new");
		const info = await stat(path);
		expect(await readFile(path, "utf8")).toBe("new");
		expect([info.uid, info.gid]).toEqual([1234, 2345]);
		expect((info.mode & 0o7777).toString(8)).toBe("6755");
	});

	it("refuses a read-only (0444) file with EACCES, even for root, and leaves it as it was", async () => {
		const path = join(folder, "locked.txt");
		await writeFile(path, "keep me");
		await chmod(path, 0o444);
		await expect(writeFileAtomic(path, "replaced")).rejects.toMatchObject({ code: "EACCES" });
		expect(await readFile(path, "utf8")).toBe("keep me");
		expect((await stat(path)).mode & 0o777).toBe(0o444);
		expect(await readdir(folder)).toEqual(["locked.txt"]);
	});
});

describe("writeFileAtomic: links", () => {
	it("creates the target of a dangling symbolic link and keeps the link", async () => {
		await symlink("made/by-link.txt", join(folder, "link.txt"));
		await mkdir(join(folder, "made"));
		await writeFileAtomic(join(folder, "link.txt"), "through the link");
		expect(await readlink(join(folder, "link.txt"))).toBe("made/by-link.txt");
		expect(await readFile(join(folder, "made", "by-link.txt"), "utf8")).toBe("through the link");
	});

	it("follows a chain of links whose last one dangles", async () => {
		await symlink("second", join(folder, "first"));
		await symlink(join(folder, "end.txt"), join(folder, "second"));
		await writeFileAtomic(join(folder, "first"), "chained");
		expect(await readFile(join(folder, "end.txt"), "utf8")).toBe("chained");
		expect((await readdir(folder)).sort()).toEqual(["end.txt", "first", "second"]);
	});

	it("keeps hard links: every name sees the new content, mode unchanged", async () => {
		const one = join(folder, "one.txt");
		const two = join(folder, "two.txt");
		await writeFile(one, "old content that is longer");
		await chmod(one, 0o640);
		await link(one, two);
		await writeFileAtomic(two, "new");
		expect(await readFile(one, "utf8")).toBe("new");
		expect(await readFile(two, "utf8")).toBe("new");
		const [first, second] = await Promise.all([stat(one), stat(two)]);
		expect(first.ino).toBe(second.ino);
		expect(first.nlink).toBe(2);
		expect(first.mode & 0o777).toBe(0o640);
		expect((await readdir(folder)).sort()).toEqual(["one.txt", "two.txt"]);
	});
});

/** Runs a child that writes `bytes` bytes to `target` through the real writer and kills it (-9) once its temporary file exists. */
async function killWriterMidWrite(entry: string, target: string, bytes: number): Promise<"killed" | "finished"> {
	const script = [
		`import { writeFileAtomic } from ${JSON.stringify(entry)};`,
		`await writeFileAtomic(${JSON.stringify(target)}, Buffer.alloc(${bytes}, 120));`,
	].join("\n");
	const watcher = watch(folder);
	const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
	let killed = false;
	watcher.on("change", (_event, name) => {
		if (String(name).endsWith(".tmp") && !killed) killed = child.kill("SIGKILL");
	});
	await new Promise<void>((done) => child.once("exit", () => done()));
	watcher.close();
	return killed ? "killed" : "finished";
}

describe("writeFileAtomic: temporary files of killed writers", () => {
	it("removes the temp file a writer killed with -9 left, on the next write of the same file", async () => {
		const entry = await transpileForChild(
			sourceRoot,
			join(sourceRoot, "workspace/local/atomic-write.ts"),
			join(folder, "compiled"),
		);
		const target = join(folder, "data.bin");
		await writeFile(target, "before");
		let leftovers: string[] = [];
		for (let bytes = 64 * 1024 * 1024; leftovers.length === 0 && bytes <= 512 * 1024 * 1024; bytes *= 2) {
			await killWriterMidWrite(entry, target, bytes);
			leftovers = (await readdir(folder)).filter((name) => name.endsWith(".tmp"));
		}
		expect(leftovers).toHaveLength(1);
		const [leftover = ""] = leftovers;
		expect(leftover).toMatch(/^\.data\.bin\.\d+-[0-9a-f]{12}\.tmp$/);
		// A temp file of a writer that still runs (this process) and one of another file stay.
		const deadPid = leftover.split(".")[3]?.split("-")[0];
		expect(deadPid).toMatch(/^\d+$/);
		const live = `.data.bin.${process.pid}-aaaaaaaaaaaa.tmp`;
		const other = `.other.bin.${deadPid}-bbbbbbbbbbbb.tmp`;
		await writeFile(join(folder, live), "");
		await writeFile(join(folder, other), "");
		await writeFileAtomic(target, "after");
		expect(await readFile(target, "utf8")).toBe("after");
		expect((await readdir(folder)).sort()).toEqual([live, other, "compiled", "data.bin"].sort());
	});
});
