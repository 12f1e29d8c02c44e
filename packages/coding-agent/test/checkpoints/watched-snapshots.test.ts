import { execFileSync } from "node:child_process";
import { appendFile, chmod, mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLocalWorkspace } from "@gantry/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowRepository } from "../../src/checkpoints/shadow-repository.js";
import { gitIn, usePlace } from "./helpers.js";

const place = usePlace("gantry-watched-");
let project: string;
let home: string;
const opened: ShadowRepository[] = [];

beforeEach(() => {
	({ project, home } = place);
});

afterEach(() => {
	for (const repository of opened.splice(0)) repository.close();
});

async function open(sessionKey: string, watch = true): Promise<ShadowRepository> {
	const repository = await ShadowRepository.open({ workspace: createLocalWorkspace(project), home, sessionKey, watch });
	opened.push(repository);
	return repository;
}

function treeOf(repository: ShadowRepository, commit: string): string {
	return execFileSync("git", ["--git-dir", repository.gitDir, "rev-parse", `${commit}^{tree}`], {
		encoding: "utf8",
	}).trim();
}

function filesOf(repository: ShadowRepository, commit: string): string[] {
	const listing = execFileSync("git", ["--git-dir", repository.gitDir, "ls-tree", "-r", "--name-only", commit], {
		encoding: "utf8",
	});
	return listing.split("\n").filter(Boolean);
}

/**
 * Takes a snapshot with the watching repository and one with a repository that lists the whole folder
 * with git (its own session and index), and expects the same tree: the watch missed nothing and added
 * nothing git would not.
 */
async function expectSameAsGit(watched: ShadowRepository, step: string, way: "watched" | "listed" = "watched") {
	const snapshot = await watched.snapshot(step);
	expect(`${step}: ${watched.lastWay}`).toBe(`${step}: ${way}`);
	const listing = await open(`listing ${step}`, false);
	const listed = await listing.snapshot(step);
	expect(listing.lastWay).toBe("listed");
	expect(filesOf(watched, snapshot.commit), step).toEqual(filesOf(listing, listed.commit));
	expect(treeOf(watched, snapshot.commit), step).toBe(treeOf(listing, listed.commit));
	return snapshot.commit;
}

describe("watched snapshots", () => {
	it("record exactly what git would, change by change, without listing the folder", async () => {
		await writeFile(join(project, ".gitignore"), "ignored/\n*.log\n");
		await mkdir(join(project, "src", "deep"), { recursive: true });
		await mkdir(join(project, "empty"));
		await mkdir(join(project, "logs-only"));
		await writeFile(join(project, "logs-only", "a.log"), "log\n");
		await writeFile(join(project, "src", "a.ts"), "a\n");
		await writeFile(join(project, "src", "deep", "b.ts"), "b\n");
		await writeFile(join(project, "top.txt"), "top\n");
		gitIn(project, "init", "-q");
		const repository = await open("watching");
		const first = await repository.snapshot("first");
		expect(repository.lastWay).toBe("listed");
		expect((await repository.snapshot("nothing changed")).commit).toBe(first.commit);
		expect(repository.lastWay).toBe("watched");

		// A child process writes, right before the checkpoint.
		execFileSync("sh", ["-c", "echo more >> src/a.ts && printf 'x' > src/new.ts"], { cwd: project });
		await expectSameAsGit(repository, "child process");

		await appendFile(join(project, "top.txt"), "changed just now\n");
		await expectSameAsGit(repository, "change right before");

		await rename(join(project, "src", "deep", "b.ts"), join(project, "src", "deep", "renamed.ts"));
		await expectSameAsGit(repository, "file renamed");

		await rename(join(project, "src", "deep"), join(project, "src", "moved"));
		await expectSameAsGit(repository, "folder renamed");
		await writeFile(join(project, "src", "moved", "after-move.ts"), "m\n");
		await expectSameAsGit(repository, "change inside the moved folder");

		await rm(join(project, "top.txt"));
		await expectSameAsGit(repository, "file deleted");

		await mkdir(join(project, "fresh", "inner"), { recursive: true });
		await writeFile(join(project, "fresh", "inner", "c.ts"), "c\n");
		await writeFile(join(project, "fresh", "skip.log"), "log\n");
		await expectSameAsGit(repository, "new folders");
		await writeFile(join(project, "fresh", "inner", "c.ts"), "c changed\n");
		await writeFile(join(project, "fresh", "inner", "d.ts"), "d\n");
		await expectSameAsGit(repository, "change inside a newly created folder");

		await writeFile(join(project, "empty", "now.txt"), "not empty\n");
		await writeFile(join(project, "logs-only", "real.txt"), "real\n");
		await expectSameAsGit(repository, "files in a folder that was empty or held only ignored files");

		await mkdir(join(project, "ignored", "sub"), { recursive: true });
		await writeFile(join(project, "ignored", "sub", "cache"), "cache\n");
		await writeFile(join(project, "run.log"), "log\n");
		await expectSameAsGit(repository, "ignored files and folders");

		await chmod(join(project, "src", "a.ts"), 0o755);
		await symlink("src/a.ts", join(project, "link"));
		await expectSameAsGit(repository, "mode and link");

		await rm(join(project, "fresh"), { recursive: true });
		await writeFile(join(project, "fresh"), "a file where a folder was\n");
		await rm(join(project, "src", "new.ts"));
		await mkdir(join(project, "src", "new.ts"));
		await writeFile(join(project, "src", "new.ts", "inside.ts"), "i\n");
		await expectSameAsGit(repository, "file and folder swapped");

		await rm(join(project, "src"), { recursive: true });
		await expectSameAsGit(repository, "folder deleted");

		await mkdir(join(project, "nested"));
		gitIn(join(project, "nested"), "init", "-q");
		await writeFile(join(project, "nested", "own.txt"), "own\n");
		await expectSameAsGit(repository, "a nested repository appears");
	});

	it("lists the folder with git again when an ignore file changes, then watches again", async () => {
		await writeFile(join(project, ".gitignore"), "*.tmp\n");
		await writeFile(join(project, "keep.tmp"), "t\n");
		const repository = await open("rules");
		await repository.snapshot("first");
		await writeFile(join(project, ".gitignore"), "");
		await expectSameAsGit(repository, "ignore file emptied", "listed");
		await writeFile(join(project, "keep.tmp"), "t2\n");
		await expectSameAsGit(repository, "watched again");
	});

	it("keeps recording a file it recorded once an ignore rule covers it, as git keeps a tracked file", async () => {
		await writeFile(join(project, "a.txt"), "a\n");
		const repository = await open("tracked stays");
		await repository.snapshot("first");
		await mkdir(join(project, "gen"));
		await writeFile(join(project, "gen", "x.txt"), "x\n");
		await repository.snapshot("made by a tool");
		expect(repository.lastWay).toBe("watched");
		await writeFile(join(project, ".gitignore"), "gen/\n");
		await writeFile(join(project, "gen", "x.txt"), "x changed\n");
		const after = await repository.snapshot("ignored now");
		expect(repository.lastWay).toBe("listed");
		expect(filesOf(repository, after.commit)).toEqual([".gitignore", "a.txt", "gen/x.txt"]);
		const content = execFileSync("git", ["--git-dir", repository.gitDir, "show", `${after.commit}:gen/x.txt`], {
			encoding: "utf8",
		});
		expect(content).toBe("x changed\n");
	});

	it("does not walk an ignored folder that appears, however big", async () => {
		await writeFile(join(project, ".gitignore"), "build/\n");
		await writeFile(join(project, "a.txt"), "a\n");
		const repository = await open("big build");
		await repository.snapshot("first");
		await mkdir(join(project, "build", "out"), { recursive: true });
		// More entries than a new folder may bring before the checkpoint lists everything with git instead.
		for (let index = 0; index < 2100; index++) await writeFile(join(project, "build", "out", `${index}.js`), "x");
		await writeFile(join(project, "a.txt"), "b\n");
		await expectSameAsGit(repository, "big ignored folder");
	});

	it("leaves a folder with .gitattributes to git, and stops watching once closed", async () => {
		await writeFile(join(project, "a.txt"), "a\n");
		const repository = await open("closing");
		await repository.snapshot("first");
		repository.close();
		await writeFile(join(project, "a.txt"), "b\n");
		await expectSameAsGit(repository, "closed", "listed");

		const attributed = await open("attributes");
		await writeFile(join(project, ".gitattributes"), "*.txt text eol=lf\n");
		await attributed.snapshot("first");
		await writeFile(join(project, "a.txt"), "c\r\n");
		await expectSameAsGit(attributed, "with attributes", "listed");
	});
});
