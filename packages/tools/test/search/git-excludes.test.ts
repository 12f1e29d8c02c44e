import { execFileSync } from "node:child_process";
import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { createFindToolDefinition, createGrepToolDefinition, createLocalWorkspace } from "../../src/index.js";
import { excludesFileSetting } from "../../src/search/git-excludes.js";
import type { Workspace } from "../../src/workspace/types.js";
import { ripgrepAvailable } from "../grep/ripgrep-available.js";
import { makeTempFolder, writeTree } from "./fixture.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
	await cleanup?.();
	cleanup = undefined;
});

/** A repository whose ignore rules come from every place git reads, and a home of its own. */
async function repository(): Promise<{ repo: string; home: string; git: (...args: string[]) => string }> {
	const { root, remove } = await makeTempFolder("gantry-excludes-");
	cleanup = remove;
	const base = await realpath(root);
	const repo = join(base, "repo");
	const home = join(base, "home");
	await mkdir(repo, { recursive: true });
	await mkdir(join(home, ".config", "git"), { recursive: true });
	const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" };
	const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env, encoding: "utf8" });
	git("init", "-q");
	return { repo, home, git };
}

const FILES: Record<string, string> = {
	"src/a.ts": "marker\n",
	"src/gen/out.ts": "marker\n",
	"keep.log": "marker\n",
	"drop.log": "marker\n",
	"notes/private.md": "marker\n",
	"notes/public.md": "marker\n",
	"scratch/x.txt": "marker\n",
	"deep/er/local.env": "marker\n",
	"top.tmp": "marker\n",
	"sub/top.tmp": "marker\n",
	"global.bak": "marker\n",
	"sub/global.bak": "marker\n",
};

/** What the tools list from `path` on `workspace`: every file (find), or the files holding "marker" (grep). */
async function toolViews(workspace: Workspace, path: string): Promise<Record<string, string[]>> {
	const views: Record<string, string[]> = {};
	const find = wrapToolDefinition(createFindToolDefinition(workspace));
	const found = await find.execute("f", { pattern: "**/*", path, limit: 1000 });
	views.find = (found.structuredContent as { files: string[] }).files;
	const noGlob: Workspace = { ...workspace };
	delete (noGlob as { glob?: unknown }).glob;
	const walked = await wrapToolDefinition(createFindToolDefinition(noGlob)).execute("w", {
		pattern: "**/*",
		path,
		limit: 1000,
	});
	views.walk = (walked.structuredContent as { files: string[] }).files;
	const engines = ripgrepAvailable ? (["builtin", "ripgrep"] as const) : (["builtin"] as const);
	for (const engine of engines) {
		const grep = wrapToolDefinition(createGrepToolDefinition(workspace, { engine }));
		const result = await grep.execute("g", { pattern: "marker", path, limit: 1000 });
		const matches = (result.structuredContent as { matches?: { path: string }[] }).matches ?? [];
		views[engine] = [...new Set(matches.map((match) => match.path))];
	}
	for (const key of Object.keys(views)) views[key] = (views[key] ?? []).sort();
	return views;
}

/** Checks each tool's view against git's list (grep sees only the files holding the marker). */
function expectViews(views: Record<string, string[]>, expected: string[]): void {
	const marked = expected.filter((file) => !file.endsWith(".gitignore"));
	for (const [engine, files] of Object.entries(views)) {
		const want = engine === "find" || engine === "walk" ? expected : marked;
		expect({ engine, files }).toEqual({ engine, files: want });
	}
}

function oracle(git: (...args: string[]) => string, prefix = ""): string[] {
	return git("ls-files", "--others", "--cached", "--exclude-standard", "--", prefix || ".")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => (prefix ? line.slice(prefix.length + 1) : line))
		.sort();
}

describe("git's excludes in find and grep", () => {
	it("honour .git/info/exclude, core.excludesFile and git's default global file, as git ls-files does", async () => {
		const { repo, home, git } = await repository();
		await writeTree(repo, FILES);
		await writeTree(repo, { ".gitignore": "!keep.log\n", "notes/.gitignore": "!public.md\n" });
		// info/exclude: plain names, an anchored path, a folder, a negation overridden by .gitignore.
		await writeFile(
			join(repo, ".git/info/exclude"),
			"# comment\n*.log\n/top.tmp\nscratch/\nnotes/*.md\ndeep/**/*.env\n",
		);
		// The user's file: core.excludesFile in the repository's own config wins over git's default place.
		await writeFile(join(home, ".config/git/ignore"), "*.never-used\n");
		await writeFile(join(home, "global-excludes"), "*.bak\nsrc/gen/\n");
		git("config", "core.excludesFile", "~/global-excludes");

		const workspace = createLocalWorkspace(repo, { home });
		const expected = oracle(git);
		expect(expected).toContain("keep.log");
		expect(expected).toContain("sub/top.tmp");
		expect(expected).not.toContain("drop.log");
		expect(expected).not.toContain("sub/global.bak");
		expectViews(await toolViews(workspace, "."), expected);
		// Searching below the repository root applies the same rules.
		expectViews(await toolViews(workspace, "notes"), oracle(git, "notes"));
	});

	it("read git's default global ignore file when no config names one", async () => {
		const { repo, home, git } = await repository();
		await writeTree(repo, FILES);
		await writeFile(join(home, ".config/git/ignore"), "*.tmp\n");
		const expected = oracle(git);
		expect(expected).not.toContain("top.tmp");
		expectViews(await toolViews(createLocalWorkspace(repo, { home }), "."), expected);
	});

	it("apply a nested repository's own info/exclude inside it, not the outer one's", async () => {
		const { repo, home } = await repository();
		await writeTree(repo, { "a.txt": "marker\n", "vendor/a.txt": "marker\n", "vendor/skip.txt": "marker\n" });
		await writeFile(join(repo, ".git/info/exclude"), "a.txt\n");
		execFileSync("git", ["init", "-q"], { cwd: join(repo, "vendor") });
		await writeFile(join(repo, "vendor/.git/info/exclude"), "skip.txt\n");
		expectViews(await toolViews(createLocalWorkspace(repo, { home }), "."), ["vendor/a.txt"]);
	});

	it("read a linked worktree's excludes from the main repository's git folder", async () => {
		const { repo, home, git } = await repository();
		await writeTree(repo, { "a.txt": "marker\n" });
		git("add", "-A");
		git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "x");
		const worktree = join(repo, "..", "linked");
		git("worktree", "add", "-q", worktree);
		await writeFile(join(worktree, "fresh.txt"), "marker\n");
		await writeFile(join(repo, ".git/info/exclude"), "fresh.txt\n");
		expectViews(await toolViews(createLocalWorkspace(worktree, { home }), "."), ["a.txt"]);
	});
});

describe("excludesFileSetting", () => {
	it("reads the last core.excludesFile, with quotes, comments and any case", () => {
		const text = [
			"[user]",
			"\texcludesFile = /not/core",
			"[core]",
			"\tautocrlf = false",
			'\texcludesfile = "/first path" # first',
			"[core] excludesFile = ~/.second ; second",
			'[remote "origin"]',
			"\texcludesFile = /not/core/either",
		].join("\n");
		expect(excludesFileSetting(text)).toBe("~/.second");
		expect(excludesFileSetting("[core]\n\tbare = false\n")).toBeUndefined();
	});
});
