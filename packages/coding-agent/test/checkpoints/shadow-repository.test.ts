import { execFileSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLocalWorkspace } from "@gantry/tools";
import { beforeEach, describe, expect, it } from "vitest";
import { copyIndexFile } from "../../src/checkpoints/index-copy.js";
import { ShadowRepository } from "../../src/checkpoints/shadow-repository.js";
import { gitIn, usePlace } from "./helpers.js";

const place = usePlace("gantry-shadow-");
let project: string;
let home: string;

beforeEach(() => {
	({ project, home } = place);
});

function git(...args: string[]): string {
	return gitIn(project, ...args);
}

describe("ShadowRepository", () => {
	it("records the folder outside it, never touching the project's .git, and restores files, modes and links", async () => {
		git("init", "-q");
		await writeFile(join(project, "a.txt"), "one\n");
		await writeFile(join(project, ".gitignore"), "ignored/\n*.log\n");
		git("add", "-A");
		git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first");
		await writeFile(join(project, "untracked.txt"), "u\n");
		const statusBefore = git("status", "--porcelain");
		const headBefore = git("rev-parse", "HEAD");
		const indexBefore = await readFile(join(project, ".git", "index"));

		const repository = await ShadowRepository.open({
			workspace: createLocalWorkspace(project),
			home,
			sessionKey: "s1",
		});
		expect(repository.gitDir.startsWith(join(home, ".gantry", "checkpoints"))).toBe(true);
		const first = await repository.snapshot("first");
		expect((await repository.snapshot("again")).commit).toBe(first.commit);

		await writeFile(join(project, "a.txt"), "two\n");
		await writeFile(join(project, "new.bin"), Buffer.from([0, 1, 2, 255, 0]));
		await mkdir(join(project, "ignored"));
		await writeFile(join(project, "ignored", "cache"), "x");
		await writeFile(join(project, "run.log"), "log");
		await chmod(join(project, "untracked.txt"), 0o755);
		await symlink("a.txt", join(project, "link"));
		await mkdir(join(project, "deep", "er"), { recursive: true });
		await writeFile(join(project, "deep", "er", "f.txt"), "f");
		const second = await repository.snapshot("second");
		const changes = await repository.changes(first.commit, second.commit);
		expect(changes.map((change) => `${change.status} ${change.path}`).sort()).toEqual([
			"A deep/er/f.txt",
			"A link",
			"A new.bin",
			"M a.txt",
			"M untracked.txt",
		]);

		await repository.remove(["new.bin", "link", "deep/er/f.txt"]);
		await repository.restore(first.commit, ["a.txt", "untracked.txt"]);
		expect(await readFile(join(project, "a.txt"), "utf8")).toBe("one\n");
		expect((await stat(join(project, "untracked.txt"))).mode & 0o111).toBe(0);
		await expect(stat(join(project, "deep"))).rejects.toThrow();
		expect(await readFile(join(project, "ignored", "cache"), "utf8")).toBe("x");
		expect(await readFile(join(project, "run.log"), "utf8")).toBe("log");
		expect(git("status", "--porcelain")).toBe(statusBefore);
		expect(git("rev-parse", "HEAD")).toBe(headBefore);
		expect(await readFile(join(project, ".git", "index"))).toEqual(indexBefore);
	});

	it("a new session starting from another's index sees a file changed in the same second (racy git)", async () => {
		// Git trusts an index entry's file times only against the index file's own time (in whole seconds):
		// the copy a new session starts from must keep that time. The case needs the first checkpoint and the
		// change in one second and the new session in a later one: rounds that miss it are taken again.
		// The copy keeps the original's time (what the rest relies on; timing cannot make this check miss).
		const original = join(home, "index-original");
		await writeFile(original, "index bytes");
		await utimes(original, new Date(2001, 0, 1), new Date(2001, 0, 1));
		await copyIndexFile(createLocalWorkspace(project), original, join(home, "index-copy"));
		expect((await stat(join(home, "index-copy"))).mtimeMs).toBe((await stat(original)).mtimeMs);
		// End to end, when a round manages the change in the first checkpoint's second (a loaded machine may not).
		let proven = 0;
		for (let round = 0; round < 6 && proven < 2; round++) {
			const folder = join(project, `round-${round}`);
			await mkdir(folder);
			while (Date.now() % 1000 > 100) await new Promise((resolve) => setTimeout(resolve, 10));
			await writeFile(join(folder, "a.txt"), "a\n");
			const workspace = createLocalWorkspace(folder);
			const first = await ShadowRepository.open({ workspace, home, sessionKey: `first ${round}`, watch: false });
			await first.snapshot("first");
			await writeFile(join(folder, "a.txt"), "b\n");
			const written = await stat(join(folder, "a.txt"));
			const indexTime = Math.max(...(await indexTimes(first.gitDir)));
			if (Math.floor(written.ctimeMs / 1000) !== Math.floor(indexTime / 1000)) continue;
			await new Promise((resolve) => setTimeout(resolve, 1100));
			proven++;
			const second = await ShadowRepository.open({ workspace, home, sessionKey: `second ${round}`, watch: false });
			const { commit } = await second.snapshot("second");
			const content = execFileSync("git", ["--git-dir", second.gitDir, "show", `${commit}:a.txt`], {
				encoding: "utf8",
			});
			expect(content).toBe("b\n");
		}
	}, 60_000);

	it("leaves out files over the size limit and says so", async () => {
		const repository = await ShadowRepository.open({
			workspace: createLocalWorkspace(project),
			home,
			sessionKey: "s2",
			fileSizeLimit: 1000,
		});
		await writeFile(join(project, "big.dat"), Buffer.alloc(2000, 7));
		await writeFile(join(project, "small.txt"), "s");
		const first = await repository.snapshot("first");
		expect(first.skipped).toEqual([{ path: "big.dat", size: 2000 }]);
		const empty = await repository.snapshot("same");
		expect(empty.commit).toBe(first.commit);
		await writeFile(join(project, "small.txt"), "t");
		const second = await repository.snapshot("second");
		expect((await repository.changes(first.commit, second.commit)).map((change) => change.path)).toEqual(["small.txt"]);
	});

	it("leaves big files out of a whole-folder checkpoint too (many files, odd names)", async () => {
		const repository = await ShadowRepository.open({
			workspace: createLocalWorkspace(project),
			home,
			sessionKey: "s3",
			fileSizeLimit: 1000,
		});
		await mkdir(join(project, "many"));
		for (let index = 0; index < 600; index++) await writeFile(join(project, "many", `f${index}.txt`), `${index}`);
		await writeFile(join(project, "[big] *#1 .dat"), Buffer.alloc(2000, 7));
		await writeFile(join(project, "!big.dat"), Buffer.alloc(2000, 7));
		const first = await repository.snapshot("first");
		expect(first.skipped.map((file) => file.path).sort()).toEqual(["!big.dat", "[big] *#1 .dat"]);
		await writeFile(join(project, "many", "f1.txt"), "changed");
		const second = await repository.snapshot("second");
		expect((await repository.changes(first.commit, second.commit)).map((change) => change.path)).toEqual([
			"many/f1.txt",
		]);
		const tree = execFileSync("git", ["--git-dir", repository.gitDir, "ls-tree", "--name-only", second.commit], {
			encoding: "utf8",
		});
		expect(tree.split("\n").filter(Boolean)).toEqual(["many"]);
	});
});

/** The modification times of the index files in a shadow repository. */
async function indexTimes(gitDir: string): Promise<number[]> {
	const folder = join(gitDir, "gantry-index");
	const names = (await readdir(folder)).filter((name) => !name.endsWith(".paths"));
	return Promise.all(names.map(async (name) => (await stat(join(folder, name))).mtimeMs));
}
