/**
 * `git status|log|diff|show|branch` only read, unless the repository's own configuration makes git run a
 * program: `core.fsmonitor` runs on every status, `diff.external` and `diff.<driver>.textconv` on a diff,
 * `gpg.program` on a signed log, `filter.<driver>.clean` when a changed file is compared. A folder that did
 * not come from `git clone` (an archive, a repository written to trick the agent) brings its `.git/config`
 * with it, so before a git line runs without a question the config of the repository it will use is read:
 * any key that names a program, loads another file or moves the work tree, and any submodule (whose own
 * config git reads too), makes the line one that asks.
 */

/** Keys (the part after the last dot, lower case) whose values git runs, or that change what git reads. */
const RISKY_KEYS = new Set([
	"fsmonitor",
	"pager",
	"editor",
	"textconv",
	"command",
	"program",
	"external",
	"clean",
	"smudge",
	"process",
	"helper",
	"askpass",
	"sshcommand",
	"alternaterefscommand",
	"worktree",
	"path",
]);
/** Sections in which every key is risky: includes load other files; pagers, filters and helpers run programs. */
const RISKY_SECTIONS = new Set(["include", "includeif", "pager", "filter", "credential"]);

/** A section header, optionally with a quoted subsection, and what follows it on the line. */
const HEADER = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\\n]|\\.)*")?\s*\](.*)$/;

/** What a config file holds that matters here: a key that runs programs, and where hooks are looked for. */
export interface ConfigRisks {
	runsPrograms: boolean;
	/** `core.hooksPath` as written (a plain value; an unusual one counts as running programs). */
	hooksPath?: string;
}

/**
 * Whether a git config file's text could make a reading git command run a program, and where it has git
 * look for hooks. Errs towards yes: a line that is not clearly a comment, a header or a harmless key counts
 * when it could be a risky key.
 */
export function configRisks(text: string): ConfigRisks {
	const risky = { runsPrograms: true };
	let section = "";
	let hooksPath: string | undefined;
	for (const raw of text.split(/\r\n|\n|\r/)) {
		let line = raw.trim();
		if (line.startsWith("[")) {
			const header = HEADER.exec(line);
			if (header === null) return risky;
			section = (header[1] ?? "").toLowerCase().split(".")[0] ?? "";
			line = (header[2] ?? "").trim();
		}
		if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
		if (RISKY_SECTIONS.has(section)) return risky;
		const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(line)?.[0]?.toLowerCase();
		if (key === undefined) continue;
		if (section === "core" && key === "fsmonitor" && /^fsmonitor\s*=\s*(false|no|off|0)\s*$/i.test(line)) continue;
		if (section === "core" && key === "hookspath") {
			// git runs `post-index-change` from there when a status or diff refreshes the index.
			const value = /^hookspath\s*=\s*([^\s"'\\#;~$]+)$/i.exec(line)?.[1];
			if (value === undefined) return risky;
			hooksPath = value;
		} else if (RISKY_KEYS.has(key)) return risky;
	}
	return hooksPath === undefined ? { runsPrograms: false } : { runsPrograms: false, hooksPath };
}

/** What the check reads on the host the command runs on. */
export interface GitConfigHost {
	/** The host's path syntax. */
	syntax: { resolve(...paths: string[]): string; dirname(path: string): string; join(...paths: string[]): string };
	/** Whether something is at the path. */
	exists(path: string): Promise<boolean>;
	/** A file's text; rejects when it cannot be read. */
	readText(path: string): Promise<string>;
}

/** git's options before the sub-command that choose where it looks; anything else there keeps the line asking. */
function startFolder(words: readonly string[], cwd: string, host: GitConfigHost): string | undefined {
	let folder = cwd;
	for (let index = 0; index < words.length; index++) {
		const word = words[index] ?? "";
		if (word === "-C") {
			const next = words[++index];
			if (next === undefined) return undefined;
			folder = host.syntax.resolve(folder, next);
		} else if (word.startsWith("--git-dir") || word.startsWith("--work-tree")) return undefined;
		else if (!word.startsWith("-")) break;
	}
	return folder;
}

/** The repository git would use for a command started in `folder`: its top folder and the folders it reads config from. */
async function repositoryOf(
	folder: string,
	host: GitConfigHost,
): Promise<{ top: string; gitDirs: string[] } | undefined> {
	for (let current = folder; ; current = host.syntax.dirname(current)) {
		const found = await repositoryAt(current, host);
		if (found !== undefined) return { top: current, gitDirs: found };
		if (host.syntax.dirname(current) === current) return undefined;
	}
}

/** The git folders of the repository whose top is `current`, if it is one. */
async function repositoryAt(current: string, host: GitConfigHost): Promise<string[] | undefined> {
	const dotGit = host.syntax.join(current, ".git");
	if (await host.exists(host.syntax.join(dotGit, "HEAD"))) return withCommon(dotGit, host);
	if (await host.exists(dotGit)) {
		// A `.git` file (a worktree or a submodule): `gitdir: <path>`.
		const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await host.readText(dotGit))?.[1];
		if (pointer === undefined) throw new Error(`${dotGit} names no gitdir`);
		return withCommon(host.syntax.resolve(current, pointer), host);
	}
	// git also takes a folder that is itself a repository (a bare one) as the one to use.
	if (
		(await host.exists(host.syntax.join(current, "HEAD"))) &&
		(await host.exists(host.syntax.join(current, "objects")))
	)
		return withCommon(current, host);
	return undefined;
}

/** A linked worktree's git folder and the common one its `commondir` names. */
async function withCommon(gitDir: string, host: GitConfigHost): Promise<string[]> {
	const commonFile = host.syntax.join(gitDir, "commondir");
	if (!(await host.exists(commonFile))) return [gitDir];
	return [gitDir, host.syntax.resolve(gitDir, (await host.readText(commonFile)).trim())];
}

/**
 * Whether the git command `words` (after `git`), started in `cwd`, may run a program its repository's config
 * names, or cannot be told: a `--git-dir`/`--work-tree` option, a submodule, a risky key, a file that
 * cannot be read. Resolves false only when every config file git would read was read and is inert.
 */
export async function gitMayRunPrograms(words: readonly string[], cwd: string, host: GitConfigHost): Promise<boolean> {
	try {
		const folder = startFolder(words, cwd, host);
		if (folder === undefined) return true;
		const repository = await repositoryOf(folder, host);
		if (repository === undefined) return false;
		let hooks: string | undefined;
		for (const gitDir of repository.gitDirs) {
			if (await host.exists(host.syntax.join(gitDir, "modules"))) return true;
			for (const name of ["config", "config.worktree"]) {
				const file = host.syntax.join(gitDir, name);
				if (!(await host.exists(file))) continue;
				const risks = configRisks(await host.readText(file));
				if (risks.runsPrograms) return true;
				if (risks.hooksPath !== undefined) hooks = host.syntax.resolve(repository.top, risks.hooksPath);
			}
		}
		const hookFolders =
			hooks === undefined ? repository.gitDirs.map((gitDir) => host.syntax.join(gitDir, "hooks")) : [hooks];
		for (const folder of hookFolders) if (await host.exists(host.syntax.join(folder, "post-index-change"))) return true;
		return false;
	} catch {
		return true;
	}
}

/** The words of a simple command from its program on (assignments in front of it skipped). */
function fromProgram(words: readonly { text: string }[]): string[] {
	const texts = words.map((word) => word.text);
	const program = texts.findIndex((text) => !/^[A-Za-z_]\w*=/.test(text));
	return program === -1 ? [] : texts.slice(program);
}

/**
 * Whether a read-only shell line runs git in a way its repository's config could turn into running a
 * program (see `gitMayRunPrograms`); a line that also changes folder (`cd dir && git status`) counts, since
 * the repository git would use there is not the one checked.
 */
export async function shellGitMayRunPrograms(
	commands: readonly { words: readonly { text: string }[] }[],
	cwd: string,
	host: GitConfigHost,
): Promise<boolean> {
	const lines = commands.map((command) => fromProgram(command.words));
	const gits = lines.filter((words) => words[0] === "git");
	if (gits.length === 0) return false;
	if (lines.some((words) => ["cd", "pushd", "popd"].includes(words[0] ?? ""))) return true;
	for (const words of gits) if (await gitMayRunPrograms(words.slice(1), cwd, host)) return true;
	return false;
}

/** The check's view of the host a call's paths name (`CallPathHost`); without `readFile`, every read fails. */
export function gitConfigHostOf(host: {
	syntax: GitConfigHost["syntax"];
	lookup: { stat(path: string): Promise<unknown> };
	readFile?: (path: string) => Promise<Uint8Array>;
}): GitConfigHost {
	return {
		syntax: host.syntax,
		exists: async (path) => {
			try {
				return (await host.lookup.stat(path)) !== undefined;
			} catch (error) {
				// `.git/HEAD` where `.git` is a file: nothing is there.
				if ((error as { code?: unknown }).code === "ENOTDIR") return false;
				throw error;
			}
		},
		readText: async (path) => {
			if (host.readFile === undefined) throw new Error("this host cannot read files for the policy");
			return Buffer.from(await host.readFile(path)).toString("utf8");
		},
	};
}
