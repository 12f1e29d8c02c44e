import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import type { PathEntry } from "./path-policy.js";

/**
 * Shell start-up files protected in the working folder: those bash and zsh read for every interactive (and,
 * for `.zshenv`, every) shell when the folder is a home folder — the list sandbox-runtime protects, plus
 * `.zshenv`. Each one that does not exist costs a mount per command, so the rarer ones are protected in
 * the home folder only (`HOME_SHELL_FILES`).
 */
const SHELL_STARTUP_FILES: readonly string[] = [
	".bashrc",
	".bash_profile",
	".profile",
	".zshrc",
	".zprofile",
	".zshenv",
];

/** Every shell start-up and logout file: whatever a command writes there runs in the user's next shell. */
const HOME_SHELL_FILES: readonly string[] = [
	".bashrc",
	".bash_profile",
	".bash_login",
	".bash_logout",
	".profile",
	".zshrc",
	".zprofile",
	".zshenv",
	".zlogin",
	".zlogout",
];

/**
 * Names in the working folder that sandboxed commands and the file tools never write, whatever the lists
 * say: what Gantry, git, editors and shells run or trust later, outside the sandbox. `.git/hooks` and
 * `.git/config` are added when `.git` is a folder, `.git` itself when it is a file (a worktree's link).
 */
const PROTECTED_IN_WORKING_FOLDER: readonly string[] = [
	".gantry/settings.json",
	".gantry/settings.local.json",
	".mcp.json",
	".gitmodules",
	".vscode",
	".idea",
	".claude/settings.json",
	".claude/settings.local.json",
	".claude/commands",
	".claude/agents",
	...SHELL_STARTUP_FILES,
];

/** What is in the home folder that no sandboxed command may change, if a list made home writable. */
const PROTECTED_IN_HOME: readonly string[] = [".gantry", ".ssh", ".gitconfig", ".claude", ...HOME_SHELL_FILES];

/** What `.git` is in a folder: decides which of its parts are protected. */
export function gitKind(folder: string): "folder" | "file" | "none" {
	try {
		return lstatSync(path.join(folder, ".git")).isDirectory() ? "folder" : "file";
	} catch {
		return "none";
	}
}

/** The `.gantry/settings*.json` files there are now (any of them may be read as settings by a later Gantry). */
function gantrySettingsFiles(cwd: string): string[] {
	try {
		return readdirSync(path.join(cwd, ".gantry"))
			.filter((name) => /^settings.*\.json$/.test(name))
			.map((name) => path.join(cwd, ".gantry", name));
	} catch {
		return [];
	}
}

/**
 * The write denies every sandboxed workspace adds: the protected names in its working folder (anchored
 * there, not at this process's cwd as sandbox-runtime's own list is), `.gantry/settings*.json`, and the
 * home folder's shell, ssh, git and Gantry files. Literal paths, never patterns.
 */
export function protectedWritePaths(cwd: string, home: string): PathEntry[] {
	const source = "the sandbox's protected files";
	const names = [...PROTECTED_IN_WORKING_FOLDER];
	const git = gitKind(cwd);
	if (git === "folder") names.push(".git/hooks", ".git/config");
	if (git === "file") names.push(".git");
	const paths = [
		...names.map((name) => path.join(cwd, name)),
		...gantrySettingsFiles(cwd),
		...PROTECTED_IN_HOME.map((name) => path.join(home, name)),
	];
	return [...new Set(paths)].map((entry) => ({ path: entry, source, literal: true }));
}

/** The `.gantry/settings*.json` pattern the file tools also refuse (a command can only be held to the names). */
export function protectedSettingsPattern(cwd: string): PathEntry {
	const folder = path.join(cwd, ".gantry");
	return {
		path: path.join(folder, "settings*.json"),
		source: "the sandbox's protected files",
		literal: true,
		covers: (absolute) => path.dirname(absolute) === folder && /^settings.*\.json$/.test(path.basename(absolute)),
	};
}
