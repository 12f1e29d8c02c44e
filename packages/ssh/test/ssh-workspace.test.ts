import { execFile } from "node:child_process";
import { lstat, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import type { TestSshServer } from "../src/testing/index.js";
import { useRemoteWorkspace } from "./helpers/workspace.js";

const run = promisify(execFile);
let server: TestSshServer;
let workspace: SshWorkspace;
let folder: string;

useRemoteWorkspace((fixture) => {
	({ server, folder, workspace } = fixture);
});

/** Runs a command on the host and collects its standard output. */
async function remote(file: string, args: string[], cwd = folder): Promise<{ out: string; exit: unknown }> {
	let out = "";
	const exit = await workspace.processes.spawn(file, args, {
		cwd,
		onStdout: (chunk) => {
			out += chunk.toString();
			return undefined;
		},
	});
	return { out, exit };
}

describe("createSshWorkspace", () => {
	it("describes the remote host: cwd, home, label, a temp folder of the remote user", async () => {
		expect(workspace.cwd).toBe(folder);
		expect(workspace.home).toBe(server.home);
		expect(workspace.label).toBe(`${server.username}@127.0.0.1:${server.port}`);
		expect(workspace.isLocal).toBe(false);
		const temp = await stat(workspace.tempDir);
		expect(temp.isDirectory()).toBe(true);
		expect(temp.uid).toBe(server.uid);
	});

	it("resolves paths with posix rules against the remote cwd and home", () => {
		expect(workspace.resolvePath("a/../b.txt")).toBe(join(folder, "b.txt"));
		expect(workspace.resolvePath("~")).toBe(server.home);
		expect(workspace.resolvePath("~/x")).toBe(`${server.home}/x`);
		expect(workspace.resolvePath("/etc/hosts")).toBe("/etc/hosts");
	});

	it("runs processes as the remote user, not as root", async () => {
		const { out, exit } = await remote("id", ["-u"]);
		expect(exit).toEqual({ exitCode: 0 });
		expect(Number(out.trim())).toBe(server.uid);
	});
});

describe("files over SFTP", () => {
	beforeEach(async () => {
		await run("find", [folder, "-mindepth", "1", "-delete"]);
	});

	it("writes atomically: the new file belongs to the remote user and no temp file is left", async () => {
		await workspace.fs.writeFileAtomic(join(folder, "new.txt"), Buffer.from("hello\n"));
		const info = await stat(join(folder, "new.txt"));
		expect(info.uid).toBe(server.uid);
		expect(info.mode & 0o777).toBe(0o644);
		expect(await readFile(join(folder, "new.txt"), "utf8")).toBe("hello\n");
		expect((await remote("ls", ["-a"])).out.split("\n").filter(Boolean)).toEqual([".", "..", "new.txt"]);
	});

	it("keeps the mode of an existing file and writes through a symbolic link", async () => {
		await workspace.fs.writeFileAtomic(join(folder, "script.sh"), Buffer.from("old"));
		await remote("chmod", ["0750", "script.sh"]);
		await remote("ln", ["-s", "script.sh", "link.sh"]);
		await workspace.fs.writeFileAtomic(join(folder, "link.sh"), Buffer.from("new"));
		expect((await lstat(join(folder, "link.sh"))).isSymbolicLink()).toBe(true);
		const info = await stat(join(folder, "script.sh"));
		expect(info.mode & 0o7777).toBe(0o750);
		expect(await readFile(join(folder, "script.sh"), "utf8")).toBe("new");
	});

	it("refuses to write over a folder, into a missing folder, or where the user may not write", async () => {
		await workspace.fs.mkdir(join(folder, "sub"));
		await expect(workspace.fs.writeFileAtomic(join(folder, "sub"), Buffer.from("x"))).rejects.toMatchObject({
			code: "EISDIR",
		});
		await expect(workspace.fs.writeFileAtomic(join(folder, "missing", "x"), Buffer.from("x"))).rejects.toMatchObject({
			code: "ENOENT",
		});
		await expect(workspace.fs.writeFileAtomic("/etc/gantry-test-file", Buffer.from("x"))).rejects.toMatchObject({
			code: "EACCES",
		});
	});

	it("reads whole files, at positions, and large files intact", async () => {
		const big = Buffer.alloc(3 * 1024 * 1024 + 17);
		for (let index = 0; index < big.length; index++) big[index] = (index * 7) % 251;
		await writeFile(join(folder, "big.bin"), big);
		const read = await workspace.fs.readFile(join(folder, "big.bin"));
		expect(Buffer.from(read).equals(big)).toBe(true);
		const handle = await workspace.fs.open(join(folder, "big.bin"));
		const buffer = Buffer.alloc(10);
		expect(await handle.read(buffer, 2, 8, 1000)).toBe(8);
		expect(buffer.subarray(2).equals(big.subarray(1000, 1008))).toBe(true);
		expect(await handle.read(buffer, 0, 10, big.length)).toBe(0);
		// Small sequential reads (served from the read-ahead window) give the whole file back.
		const pieces: Buffer[] = [];
		for (let position = 0; ; ) {
			const piece = Buffer.alloc(65_536);
			const count = await handle.read(piece, 0, piece.length, position);
			if (count === 0) break;
			pieces.push(piece.subarray(0, count));
			position += count;
		}
		expect(Buffer.concat(pieces).equals(big)).toBe(true);
		await handle.close();
	});

	it("reports POSIX codes: ENOENT, EISDIR, ENOTDIR, EINVAL", async () => {
		await writeFile(join(folder, "file.txt"), "x");
		await expect(workspace.fs.readFile(join(folder, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
		await expect(workspace.fs.readFile(folder)).rejects.toMatchObject({ code: "EISDIR" });
		await expect(workspace.fs.readdir(join(folder, "file.txt"))).rejects.toMatchObject({ code: "ENOTDIR" });
		await expect(workspace.fs.readdir(join(folder, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
		await expect(workspace.fs.readlink(join(folder, "file.txt"))).rejects.toMatchObject({ code: "EINVAL" });
		await expect(workspace.fs.realpath(join(folder, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
		expect(await workspace.fs.stat(join(folder, "nope"))).toBeUndefined();
		expect(await workspace.fs.stat(join(folder, "file.txt", "below"))).toBeUndefined();
	});

	it("stats, lists and resolves links", async () => {
		await mkdir(join(folder, "dir"));
		await writeFile(join(folder, "dir", "a.txt"), "abc");
		await symlink("dir/a.txt", join(folder, "link"));
		expect(await workspace.fs.stat(join(folder, "link"))).toMatchObject({ kind: "file", size: 3 });
		expect(await workspace.fs.lstat(join(folder, "link"))).toMatchObject({ kind: "symlink" });
		expect(await workspace.fs.readlink(join(folder, "link"))).toBe("dir/a.txt");
		expect(await workspace.fs.realpath(join(folder, "link"))).toBe(join(folder, "dir", "a.txt"));
		const entries = await workspace.fs.readdir(folder);
		expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
			{ name: "dir", kind: "directory" },
			{ name: "link", kind: "symlink" },
		]);
	});

	it("makes nested folders, checks access, unlinks and removes trees", async () => {
		await workspace.fs.mkdir(join(folder, "a", "b", "c"));
		await workspace.fs.mkdir(join(folder, "a", "b", "c"));
		expect((await stat(join(folder, "a", "b", "c"))).uid).toBe(server.uid);
		await writeFile(join(folder, "a", "root.txt"), "x");
		await expect(workspace.fs.access(join(folder, "a", "root.txt"), "write")).rejects.toMatchObject({ code: "EACCES" });
		await workspace.fs.access(join(folder, "a", "root.txt"), "read");
		await workspace.fs.writeFileAtomic(join(folder, "a", "f.txt"), Buffer.from("x"));
		await workspace.fs.access(join(folder, "a", "f.txt"), "write");
		await expect(workspace.fs.access("/etc/shadow", "read")).rejects.toMatchObject({ code: "EACCES" });
		await expect(workspace.fs.access("/etc/hosts", "write")).rejects.toMatchObject({ code: "EACCES" });
		await workspace.fs.access("/etc/hosts", "read");
		await expect(workspace.fs.access(join(folder, "nope"), "read")).rejects.toMatchObject({ code: "ENOENT" });
		await workspace.fs.unlink(join(folder, "a", "f.txt"));
		await workspace.fs.unlink(join(folder, "a", "f.txt"));
		await workspace.fs.remove(join(folder, "a"));
		await workspace.fs.remove(join(folder, "a"));
		expect(await workspace.fs.stat(join(folder, "a"))).toBeUndefined();
	});

	it("streams writes into a file", async () => {
		const handle = await workspace.fs.createWriteStream(join(workspace.tempDir, "out.log"));
		await handle.write(Buffer.from("one "));
		await handle.write(new TextEncoder().encode("two"));
		await handle.close();
		expect(await readFile(join(workspace.tempDir, "out.log"), "utf8")).toBe("one two");
	});
});
