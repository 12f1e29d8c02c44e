import { isAbsolute, join, resolve } from "node:path";
import type { Workspace } from "../workspace/types.js";
import type { IgnoreFileReader, IgnoreFileReaderSync } from "./ignore-readers.js";

/**
 * Where git looks for the user's own ignore settings: the home folder (`~/.gitconfig`, and `~/.config`
 * unless `xdgConfigHome` says otherwise). Without it, only the repository's files are read.
 */
export interface GitUserPlace {
	home: string;
	/** `$XDG_CONFIG_HOME`, when set (this machine's environment); default `<home>/.config`. */
	xdgConfigHome?: string;
}

/** Where the user's git settings are on a workspace's host (`$XDG_CONFIG_HOME` is known only on this machine). */
export function gitUserOf(workspace: Pick<Workspace, "home" | "isLocal">): GitUserPlace {
	const xdgConfigHome = workspace.isLocal ? process.env.XDG_CONFIG_HOME : undefined;
	return xdgConfigHome ? { home: workspace.home, xdgConfigHome } : { home: workspace.home };
}

/**
 * The reads needed for one answer, as a generator: it yields each path whose text it needs (undefined when
 * the file is missing or is a folder) and returns the answer. Written once, driven synchronously (the local
 * glob's listing callbacks) or asynchronously (any workspace) by `readSync` / `readAsync`.
 */
type ReadPlan<T> = Generator<string, T, string | undefined>;

function readSync<T>(plan: ReadPlan<T>, reader: IgnoreFileReaderSync): T {
	let step = plan.next();
	while (!step.done) step = plan.next(reader.readText(step.value));
	return step.value;
}

async function readAsync<T>(plan: ReadPlan<T>, reader: IgnoreFileReader): Promise<T> {
	let step = plan.next();
	while (!step.done) step = plan.next(await reader.readText(step.value));
	return step.value;
}

/** The folder a `.git` file (a linked worktree's or a submodule's) points to, or undefined. */
function gitDirOfGitFile(text: string, repositoryRoot: string): string | undefined {
	const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
	if (!match?.[1]) return undefined;
	return isAbsolute(match[1]) ? match[1] : resolve(repositoryRoot, match[1]);
}

/**
 * The repository's `info/exclude` text: `<root>/.git/info/exclude`, or, where `.git` is a file naming the
 * git folder (linked worktrees, submodules), the `info/exclude` of that folder's common folder, as git
 * reads it.
 */
function* repositoryExcludePlan(repositoryRoot: string): ReadPlan<{ exclude?: string; gitDir: string }> {
	const gitPath = join(repositoryRoot, ".git");
	const direct = yield join(gitPath, "info", "exclude");
	if (direct !== undefined) return { exclude: direct, gitDir: gitPath };
	const gitFile = yield gitPath;
	const gitDir = gitFile === undefined ? undefined : gitDirOfGitFile(gitFile, repositoryRoot);
	if (gitDir === undefined) return { gitDir: gitPath };
	const common = yield join(gitDir, "commondir");
	const commonDir = common?.trim() ? resolve(gitDir, common.trim()) : gitDir;
	const exclude = yield join(commonDir, "info", "exclude");
	return exclude === undefined ? { gitDir: commonDir } : { exclude, gitDir: commonDir };
}

/** A git config value as written: quotes removed, `\"`/`\\` unescaped, a trailing `#`/`;` comment dropped. */
function configValue(raw: string): string {
	let value = "";
	let quoted = false;
	for (let index = 0; index < raw.length; index++) {
		const character = raw[index];
		if (character === '"') quoted = !quoted;
		else if (character === "\\" && index + 1 < raw.length) value += raw[++index];
		else if (!quoted && (character === "#" || character === ";")) break;
		else value += character;
	}
	return value.trim();
}

/** The last `core.excludesFile` of one git config file's text, or undefined. */
export function excludesFileSetting(text: string): string | undefined {
	let inCore = false;
	let found: string | undefined;
	for (const rawLine of text.split(/\r?\n/)) {
		const line = rawLine.trim();
		const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
		let body = line;
		if (section) {
			inCore = section[1]?.toLowerCase() === "core";
			body = section[2] ?? "";
		}
		if (!inCore) continue;
		const entry = /^excludesfile\s*=\s*(.*)$/i.exec(body);
		if (entry) found = configValue(entry[1] ?? "");
	}
	return found === "" ? undefined : found;
}

function expandHome(path: string, user: GitUserPlace | undefined): string | undefined {
	if (path === "~" || path.startsWith("~/")) return user ? join(user.home, path.slice(1)) : undefined;
	return path;
}

/**
 * The text of the file `core.excludesFile` names (the repository's config over the user's, as git orders
 * them), or of git's default `$XDG_CONFIG_HOME/git/ignore` when none does.
 */
function* userExcludesPlan(gitDir: string, user: GitUserPlace | undefined): ReadPlan<string | undefined> {
	const configDir = user ? (user.xdgConfigHome ?? join(user.home, ".config")) : undefined;
	const configs = [
		"/etc/gitconfig",
		...(configDir ? [join(configDir, "git", "config")] : []),
		...(user ? [join(user.home, ".gitconfig")] : []),
		join(gitDir, "config"),
	];
	let setting: string | undefined;
	for (const config of configs) {
		const text = yield config;
		const value = text === undefined ? undefined : excludesFileSetting(text);
		if (value !== undefined) setting = value;
	}
	const file = setting === undefined ? (configDir ? join(configDir, "git", "ignore") : undefined) : setting;
	const path = file === undefined ? undefined : expandHome(file, user);
	if (path === undefined || !isAbsolute(path)) return undefined;
	return yield path;
}

/** The exclude patterns of one repository, lowest precedence first: `core.excludesFile`, then `info/exclude`. */
export interface RepositoryExcludes {
	userExcludes?: string;
	infoExclude?: string;
}

function* excludesPlan(repositoryRoot: string, user: GitUserPlace | undefined): ReadPlan<RepositoryExcludes> {
	const { exclude, gitDir } = yield* repositoryExcludePlan(repositoryRoot);
	const userExcludes = yield* userExcludesPlan(gitDir, user);
	return {
		...(userExcludes === undefined ? {} : { userExcludes }),
		...(exclude === undefined ? {} : { infoExclude: exclude }),
	};
}

/** The excludes of the repository whose root (the folder holding `.git`) is `repositoryRoot`. */
export function readRepositoryExcludes(
	repositoryRoot: string,
	reader: IgnoreFileReader,
	user: GitUserPlace | undefined,
): Promise<RepositoryExcludes> {
	return readAsync(excludesPlan(repositoryRoot, user), reader);
}

/** `readRepositoryExcludes`, reading synchronously. */
export function readRepositoryExcludesSync(
	repositoryRoot: string,
	reader: IgnoreFileReaderSync,
	user: GitUserPlace | undefined,
): RepositoryExcludes {
	return readSync(excludesPlan(repositoryRoot, user), reader);
}
