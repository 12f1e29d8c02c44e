import { GantryError } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";

/** What one git command printed and how it ended. */
export interface GitResult {
	exitCode: number | null;
	stdout: Buffer;
	stderr: string;
}

/** Git could not be started on the workspace's host (not installed, not on PATH). */
export class GitMissingError extends GantryError<"git_missing"> {
	constructor(label: string, cause: unknown) {
		super("git_missing", `git was not found on ${label}`, { cause });
		this.name = "GitMissingError";
	}
}

/** Where the shadow repository lives and which folder it records. */
export interface GitLocation {
	gitDir: string;
	workTree: string;
	indexFile: string;
}

/**
 * The environment every checkpoint git command runs with: the shadow repository, its private index, and
 * nothing of the user's git configuration (no system or global file, so no hooks, signing, fsmonitor or
 * pagers reach it), a fixed author, literal pathspecs and C messages. Variables a user may have exported
 * that would point git elsewhere (object or common folders, alternates) are pinned to the shadow repository.
 */
export function gitEnvironment(location: GitLocation): Record<string, string> {
	return {
		GIT_DIR: location.gitDir,
		GIT_WORK_TREE: location.workTree,
		GIT_INDEX_FILE: location.indexFile,
		GIT_COMMON_DIR: location.gitDir,
		GIT_OBJECT_DIRECTORY: `${location.gitDir}/objects`,
		GIT_ALTERNATE_OBJECT_DIRECTORIES: "",
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_CONFIG_GLOBAL: "/dev/null",
		GIT_CONFIG_COUNT: "0",
		GIT_AUTHOR_NAME: "Gantry checkpoints",
		GIT_AUTHOR_EMAIL: "checkpoints@gantry.invalid",
		GIT_COMMITTER_NAME: "Gantry checkpoints",
		GIT_COMMITTER_EMAIL: "checkpoints@gantry.invalid",
		GIT_LITERAL_PATHSPECS: "1",
		GIT_TERMINAL_PROMPT: "0",
		GIT_NO_REPLACE_OBJECTS: "1",
		GIT_PAGER: "cat",
		LC_ALL: "C",
	};
}

/** Options every command passes with `-c`, so a repository-level setting cannot change them either. */
const FIXED_CONFIG = [
	"core.hooksPath=/dev/null",
	"core.fsmonitor=false",
	// Folder timestamps in the index spare listing untracked files a walk of every folder's entries.
	"core.untrackedCache=true",
	"core.autocrlf=false",
	"core.safecrlf=false",
	"core.quotePath=false",
	"core.longpaths=true",
	"commit.gpgSign=false",
	"gc.auto=0",
	"advice.addEmbeddedRepo=false",
	"advice.addIgnoredFile=false",
];

/** Runs git on the workspace's host against one shadow repository. */
export class GitRunner {
	readonly #workspace: Workspace;
	readonly #env: Record<string, string>;
	readonly #cwd: string;

	constructor(workspace: Workspace, location: GitLocation) {
		this.#workspace = workspace;
		this.#env = gitEnvironment(location);
		this.#cwd = location.workTree;
	}

	/**
	 * Runs `git args` (with `env` on top of the shadow repository's variables); rejects with
	 * `GitMissingError` when git cannot be started. Never rejects for an exit code.
	 */
	async run(args: readonly string[], env?: Record<string, string>): Promise<GitResult> {
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let status: Awaited<ReturnType<Workspace["processes"]["spawn"]>>;
		const fixed = FIXED_CONFIG.flatMap((setting) => ["-c", setting]);
		try {
			status = await this.#workspace.processes.spawn("git", [...fixed, ...args], {
				cwd: this.#cwd,
				env: env === undefined ? this.#env : { ...this.#env, ...env },
				unsandboxed: true,
				onStdout: (data) => {
					stdout.push(data);
					return undefined;
				},
				onStderr: (data) => {
					stderr.push(data);
					return undefined;
				},
			});
		} catch (error) {
			if ((error as { code?: unknown }).code === "ENOENT" && !String(error).includes("Working directory")) {
				throw new GitMissingError(this.#workspace.label, error);
			}
			throw error;
		}
		const said = Buffer.concat(stderr).toString("utf8");
		// A remote shell that cannot find the program says so with exit 127 rather than failing to start it.
		if (status.exitCode === 127 && /not found|no such file/i.test(said)) {
			throw new GitMissingError(this.#workspace.label, new Error(said.trim()));
		}
		return { exitCode: status.exitCode, stdout: Buffer.concat(stdout), stderr: said };
	}

	/** Runs `git args` and returns its standard output; rejects naming the command and git's message on failure. */
	async output(args: readonly string[]): Promise<Buffer> {
		const result = await this.run(args);
		if (result.exitCode !== 0) {
			const said = result.stderr.trim().split("\n").slice(-3).join(" ");
			throw new Error(`git ${args[0]} failed (exit ${String(result.exitCode)}): ${said || "no message"}`);
		}
		return result.stdout;
	}

	/** Like `output`, as trimmed text. */
	async text(args: readonly string[]): Promise<string> {
		return (await this.output(args)).toString("utf8").trim();
	}
}
