import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configRisks } from "../../src/permissions/git-config-risks.js";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { withTempDir } from "../session/helpers.js";

const bashAnnotations = { destructiveHint: true, openWorldHint: true };

async function decide(command: string, cwd: string) {
	const verdict = await judgeCall(
		compilePermissionRules([], []),
		{ toolName: "bash", input: { command }, cwd, annotations: bashAnnotations },
		"ask",
	);
	return verdict.decision;
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "pipe" }).toString();

/** A repository whose `.git/config` names a script for `core.fsmonitor`; the script leaves `pwned` behind. */
async function hostileRepository(folder: string): Promise<string> {
	git(folder, "init", "-q");
	await writeFile(join(folder, "a.txt"), "a\n");
	const hook = join(folder, "monitor.sh");
	await writeFile(hook, `#!/bin/sh\ntouch "${join(folder, "pwned")}"\nexit 1\n`);
	await chmod(hook, 0o755);
	git(folder, "config", "core.fsmonitor", hook);
	return join(folder, "pwned");
}

describe("a repository's own git config can make a reading git command run a program", () => {
	it("git status really runs core.fsmonitor (the attack the check exists for)", () =>
		withTempDir(async (dir) => {
			const pwned = await hostileRepository(dir);
			spawnSync("git", ["status"], { cwd: dir, stdio: "ignore" });
			expect(existsSync(pwned)).toBe(true);
		}));

	it("such a repository's git status, log, diff and show ask; a clean repository's still run unasked", () =>
		withTempDir(async (dir) => {
			const hostile = join(dir, "hostile");
			const clean = join(dir, "clean");
			await mkdir(hostile);
			await mkdir(clean);
			await hostileRepository(hostile);
			git(clean, "init", "-q");
			for (const command of ["git status", "git log -1", "git diff", "git show --stat", "ls && git status"]) {
				expect(await decide(command, hostile)).toBe("ask");
				expect(await decide(command, clean)).toBe("allow");
			}
			// From a sub-folder, and through -C, the repository above is the one checked.
			await mkdir(join(hostile, "src"));
			expect(await decide("git status", join(hostile, "src"))).toBe("ask");
			expect(await decide("git -C hostile status", dir)).toBe("ask");
			expect(await decide("git -C clean status", dir)).toBe("allow");
			// A line that changes folder first, or names another git folder, is not checked: it asks.
			expect(await decide("cd hostile && git status", dir)).toBe("ask");
			expect(await decide("git --git-dir=hostile/.git status", dir)).toBe("ask");
		}));

	it("checks a linked worktree's common config, a bare repository, submodules and hooks git runs on status", () =>
		withTempDir(async (dir) => {
			const main = join(dir, "main");
			await mkdir(main);
			git(main, "init", "-q");
			await writeFile(join(main, "a.txt"), "a\n");
			git(main, "add", ".");
			git(main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one");
			git(main, "worktree", "add", "-q", join(dir, "linked"));
			expect(await decide("git status", join(dir, "linked"))).toBe("allow");
			git(main, "config", "diff.external", "/bin/false");
			expect(await decide("git status", join(dir, "linked"))).toBe("ask");

			const bare = join(dir, "bare.git");
			git(dir, "init", "-q", "--bare", bare);
			expect(await decide("git -C bare.git log", dir)).toBe("allow");
			await writeFile(join(bare, "config"), "[core]\n\tbare = false\n\tworktree = ..\n", { flag: "a" });
			expect(await decide("git -C bare.git log", dir)).toBe("ask");

			const withHook = join(dir, "hooked");
			await mkdir(withHook);
			git(withHook, "init", "-q");
			expect(await decide("git status", withHook)).toBe("allow");
			await writeFile(join(withHook, ".git", "hooks", "post-index-change"), "#!/bin/sh\n", { mode: 0o755 });
			expect(await decide("git status", withHook)).toBe("ask");

			const husky = join(dir, "husky");
			await mkdir(join(husky, ".husky"), { recursive: true });
			git(husky, "init", "-q");
			git(husky, "config", "core.hooksPath", ".husky");
			await writeFile(join(husky, ".husky", "pre-commit"), "#!/bin/sh\n", { mode: 0o755 });
			expect(await decide("git status", husky)).toBe("allow");
			await writeFile(join(husky, ".husky", "post-index-change"), "#!/bin/sh\n", { mode: 0o755 });
			expect(await decide("git status", husky)).toBe("ask");

			const parent = join(dir, "parent");
			await mkdir(join(parent, ".git", "modules", "child"), { recursive: true });
			git(parent, "init", "-q");
			expect(await decide("git status", parent)).toBe("ask");
		}));
});

describe("configRisks", () => {
	it.each([
		"[core]\n\tfsmonitor = /tmp/x",
		"[CORE]\n\tFsMonitor=/tmp/x",
		"[core] fsmonitor = /tmp/x",
		'[diff "pdf"]\n\ttextconv = pdftotext',
		"[diff]\n\texternal = /tmp/x",
		"[core]\n\tpager = less",
		'[pager]\n\tlog = "sh -c x"',
		"[gpg]\n\tprogram = /tmp/x",
		'[gpg "ssh"]\n\tprogram = /tmp/x',
		'[filter "lfs"]\n\tclean = git-lfs clean -- %f',
		"[include]\n\tpath = ../evil.conf",
		'[includeIf "gitdir:/"]\n\tpath = ../evil.conf',
		"[core]\n\thooksPath = ~/hooks",
		"[core]\n\tworktree = /",
		"[core.x]\n\tfsmonitor = y",
		"[core\n\tfsmonitor = y",
	])("runs programs: %j", (text) => {
		expect(configRisks(text).runsPrograms).toBe(true);
	});

	it.each([
		"",
		"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n",
		"[core]\n\tfsmonitor = false",
		'[remote "origin"]\n\turl = https://example.invalid/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
		'[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
		"# a comment\n; another\n[user]\n\tname = A\n\temail = a@a\n",
		"[core]\n\thooksPath = .husky/_",
	])("inert: %j", (text) => {
		expect(configRisks(text).runsPrograms).toBe(false);
	});
});
