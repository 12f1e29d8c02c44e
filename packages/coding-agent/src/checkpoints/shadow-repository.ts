import { createHash } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";
import { join as localJoin, posix } from "node:path";
import type { Workspace } from "@gantry/tools";
import { commitBody, LooseObjectWriter } from "./git-objects.js";
import { GitRunner } from "./git-runner.js";
import { copyIndexFile } from "./index-copy.js";
import { WatchedSnapshots } from "./watched-snapshots.js";
import { listChangedFiles } from "./work-tree-changes.js";

/** Files bigger than this are left out of checkpoints (and reported once): 10 MiB. */
export const CHECKPOINT_FILE_SIZE_LIMIT = 10 * 1024 * 1024;

/**
 * Up to this many changed files are named to `git add` one by one; past it (a first checkpoint, a big
 * generated change) the whole folder is added, since git matches each path against every named one.
 */
const NAMED_PATHS_LIMIT = 500;

/** How a file differs between two checkpoints. */
export interface FileChange {
	/** `A` added, `D` deleted, `M` content or mode changed, `T` kind changed (file ↔ link). */
	status: "A" | "D" | "M" | "T";
	/** Relative to the working folder, with `/`. */
	path: string;
}

/** One checkpoint of the working folder. */
export interface Snapshot {
	commit: string;
	/** Files left out because they are over the size limit, with their size. */
	skipped: { path: string; size: number }[];
}

export interface ShadowRepositoryOptions {
	/** The host whose working folder (`workspace.cwd`) is recorded; git runs there. */
	workspace: Workspace;
	/** The home folder on that host: the repository is `<home>/.gantry/checkpoints/<hash of the folder path>`. */
	home: string;
	/** Names the session's private index and ref (any string; it is hashed). */
	sessionKey: string;
	/** Default `CHECKPOINT_FILE_SIZE_LIMIT`. */
	fileSizeLimit?: number;
	/**
	 * Watch a local folder (one inotify watch per folder) so that a snapshot looks only at what changed;
	 * default true. Without it, on a remote host or off Linux, each snapshot lists the folder with git.
	 */
	watch?: boolean;
}

/**
 * A git repository outside the project that records the working folder: `--git-dir` under `~/.gantry`,
 * `--work-tree` the folder, a private index per session and a ref per session that keeps its commits. The
 * project's own `.git` is never read or written (git never adds a `.git` entry, and every git variable points
 * here); its `.gitignore` files apply as they do for the project, and its `.git/info/exclude` is copied in.
 */
export class ShadowRepository {
	readonly gitDir: string;
	readonly workTree: string;
	/** How the last snapshot learnt what changed: from the folder watch, or by listing the folder with git. */
	lastWay: "watched" | "listed" | undefined;
	readonly #workspace: Workspace;
	readonly #git: GitRunner;
	readonly #join: (...parts: string[]) => string;
	readonly #indexFile: string;
	readonly #refFile: string;
	readonly #pathsFile: string;
	readonly #limit: number;
	#excludes = "";
	#tooBig: string | undefined;
	#last: { commit: string; tree: string } | undefined;
	readonly #objects: LooseObjectWriter;
	/** The first folder of the repository's path when it lies inside the recorded folder. */
	readonly #insideTop: string | undefined;
	#watched: WatchedSnapshots | undefined;
	#watchOff: boolean;
	/** Files the watch recorded that the index may not know (see `#addRecorded`). */
	readonly #recorded: string[] = [];

	private constructor(options: ShadowRepositoryOptions) {
		const { workspace } = options;
		this.#workspace = workspace;
		this.#join = workspace.isLocal ? localJoin : posix.join;
		this.workTree = workspace.cwd;
		this.gitDir = this.#join(options.home, ".gantry", "checkpoints", hashOf(workspace.cwd));
		const key = hashOf(options.sessionKey);
		this.#indexFile = this.#join(this.gitDir, "gantry-index", key);
		this.#pathsFile = this.#join(this.gitDir, "gantry-index", `${key}.paths`);
		this.#refFile = this.#join(this.gitDir, "refs", "gantry", key);
		this.#limit = options.fileSizeLimit ?? CHECKPOINT_FILE_SIZE_LIMIT;
		this.#git = new GitRunner(workspace, { gitDir: this.gitDir, workTree: this.workTree, indexFile: this.#indexFile });
		this.#objects = new LooseObjectWriter(this.gitDir);
		// The watch's cookie proves all earlier events arrived only with inotify's single queue (Linux).
		this.#watchOff = options.watch === false || !workspace.isLocal || process.platform !== "linux";
		this.#insideTop = relativeInside(this.workTree, this.gitDir, this.#join)?.split("/")[0];
	}

	/**
	 * Opens the folder's shadow repository, creating it when missing. Rejects with `GitMissingError` when git
	 * cannot be started on the host, and with a message naming the git command for any other failure.
	 */
	static async open(options: ShadowRepositoryOptions): Promise<ShadowRepository> {
		const repository = new ShadowRepository(options);
		await repository.#init();
		return repository;
	}

	async #init(): Promise<void> {
		const fs = this.#workspace.fs;
		if ((await fs.stat(this.#join(this.gitDir, "HEAD"))) === undefined) {
			await fs.mkdir(this.gitDir);
			await this.#git.output(["init", "-q", "--template=", this.gitDir]);
		}
		await fs.mkdir(this.#join(this.gitDir, "gantry-index"));
		await fs.mkdir(this.#join(this.gitDir, "refs", "gantry"));
		await fs.mkdir(this.#join(this.gitDir, "info"));
		if (!this.#watchOff) await fs.mkdir(this.#join(this.gitDir, "gantry-cookies"));
		this.#excludes = await this.#baseExcludes();
		await this.#writeExcludes([]);
		// A new session starts from the index another one left, so its first checkpoint hashes only what changed.
		const shared = this.#join(this.gitDir, "gantry-index", "latest");
		if ((await fs.stat(this.#indexFile)) === undefined && (await fs.stat(shared)) !== undefined) {
			await copyIndexFile(this.#workspace, shared, this.#indexFile);
		}
	}

	/** The shadow repository's own ignore list: `.git`, the repository itself when it is inside the folder, the project's `info/exclude`. */
	async #baseExcludes(): Promise<string> {
		const lines = [
			"# Written by Gantry's checkpoints; rewritten when a session opens the repository.",
			"/.git",
			".git",
		];
		const inside = relativeInside(this.workTree, this.gitDir, this.#join);
		if (inside !== undefined) lines.push(`/${inside.split("/")[0]}/`);
		try {
			const project = await this.#workspace.fs.readFile(this.#join(this.workTree, ".git", "info", "exclude"));
			lines.push(Buffer.from(project).toString("utf8"));
		} catch {
			// No project repository here (or `.git` is a file): nothing more to ignore.
		}
		return `${lines.join("\n")}\n`;
	}

	/** Records the folder as it is now; a folder unchanged since the last snapshot gives the same commit. */
	async snapshot(message: string): Promise<Snapshot> {
		if (this.#last !== undefined && this.#watched !== undefined) {
			const watched = await this.#watched.snapshot(this.#limit);
			if (watched !== undefined) {
				this.lastWay = "watched";
				return this.#commitInProcess(watched.tree, watched.skipped, message);
			}
			// It could not vouch for every change (or saw its rules change): a new watch, then a full listing.
			this.#recorded.push(...this.#watched.takeRecorded());
			this.#stopWatching();
		}
		await this.#startWatching();
		this.lastWay = "listed";
		await this.#addRecorded();
		const skipped = await this.#addAll();
		const tree = await this.#git.text(["write-tree"]);
		const snapshot = await this.#commit(tree, skipped, message);
		// The watch runs since before this listing: later snapshots need to look only at what it saw since.
		if (this.#watched !== undefined && !(await this.#watched.reset(tree).catch(() => false))) {
			this.#stopWatching();
			this.#watchOff = true;
		}
		return snapshot;
	}

	/** Stops watching the folder (a local folder is watched so a checkpoint looks only at what changed). */
	close(): void {
		if (this.#watched !== undefined) this.#recorded.push(...this.#watched.takeRecorded());
		this.#stopWatching();
		this.#watchOff = true;
	}

	/**
	 * Adds to the index the files watched snapshots recorded without it, even where an ignore rule changed
	 * since to cover them: a recorded file stays recorded, as a file git tracks stays tracked.
	 */
	async #addRecorded(): Promise<void> {
		const recorded = this.#recorded.splice(0);
		if (recorded.length === 0) return;
		const kept: string[] = [];
		for (const path of recorded) {
			const stat = await this.#workspace.fs.lstat(this.#join(this.workTree, path));
			if (stat !== undefined && stat.kind !== "directory" && stat.size <= this.#limit) kept.push(path);
		}
		if (kept.length === 0) return;
		await this.#workspace.fs.writeFileAtomic(this.#pathsFile, Buffer.from(kept.join("\0")));
		await this.#git.run([
			"add",
			"-A",
			"-f",
			"--ignore-errors",
			`--pathspec-from-file=${this.#pathsFile}`,
			"--pathspec-file-nul",
		]);
	}

	/** Brings the private index up to the folder with git: lists every change, then adds it. Returns the files left out. */
	async #addAll(): Promise<Snapshot["skipped"]> {
		const skipped: Snapshot["skipped"] = [];
		for (let attempt = 1; ; attempt++) {
			const changed = await listChangedFiles(this.#git, this.#workspace, this.#join, this.#limit);
			skipped.splice(0, skipped.length, ...changed.tooBig);
			await this.#writeExcludes(changed.tooBig.map((file) => file.path));
			if (changed.paths.length === 0) break;
			const named = changed.paths.length <= NAMED_PATHS_LIMIT;
			if (named) await this.#workspace.fs.writeFileAtomic(this.#pathsFile, Buffer.from(changed.paths.join("\0")));
			const added = await this.#git.run([
				// A whole-folder add streams every blob into one pack rather than a file per object.
				...(named ? [] : ["-c", "core.bigFileThreshold=1"]),
				"add",
				"-A",
				"--ignore-errors",
				...(named ? [`--pathspec-from-file=${this.#pathsFile}`, "--pathspec-file-nul"] : []),
			]);
			if (added.exitCode === 0 || (added.exitCode === 1 && !added.stderr.includes("fatal:"))) break;
			// A file listed a moment ago vanished before `add` saw it: list again once.
			if (attempt >= 2) throw new Error(`git add failed: ${added.stderr.trim().split("\n").slice(-2).join(" ")}`);
		}
		return skipped;
	}

	async #commit(tree: string, skipped: Snapshot["skipped"], message: string): Promise<Snapshot> {
		if (this.#last?.tree === tree) return { commit: this.#last.commit, skipped };
		const parent = this.#last?.commit ?? (await this.#readRef());
		const commit = await this.#git.text(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message]);
		await this.#recordCommit(commit);
		if (this.#last === undefined) {
			const shared = this.#join(this.gitDir, "gantry-index", "latest");
			await copyIndexFile(this.#workspace, this.#indexFile, shared);
		}
		this.#last = { commit, tree };
		return { commit, skipped };
	}

	/** Like `#commit` for a tree the watch wrote: the commit object is written here too, without a git process. */
	async #commitInProcess(tree: string, skipped: Snapshot["skipped"], message: string): Promise<Snapshot> {
		const last = this.#last as { commit: string; tree: string };
		if (last.tree === tree) return { commit: last.commit, skipped };
		const body = commitBody(tree, last.commit, message, Math.floor(Date.now() / 1000));
		const commit = this.#objects.write("commit", body);
		writeRefNow(this.#refFile, commit);
		this.#last = { commit, tree };
		return { commit, skipped };
	}

	async #recordCommit(commit: string): Promise<void> {
		// The ref keeps every commit of the session reachable (a loose ref is one line: the commit id).
		await this.#workspace.fs.writeFileAtomic(this.#refFile, Buffer.from(`${commit}\n`));
	}

	/**
	 * Starts watching a local folder when no watch runs (the first snapshot, or one after the watch could
	 * not vouch for what changed). A folder that cannot be watched (the system's limit) is listed with git.
	 */
	async #startWatching(): Promise<void> {
		if (this.#watched !== undefined || this.#watchOff) return;
		try {
			this.#watched = await WatchedSnapshots.start(
				this.#git,
				this.workTree,
				this.gitDir,
				this.#join(this.gitDir, "gantry-cookies"),
				(top) => top === this.#insideTop,
			);
		} catch {
			this.#watchOff = true;
		}
	}

	#stopWatching(): void {
		this.#watched?.close();
		this.#watched = undefined;
	}

	/** The ignore list with the files over the size limit, so a whole-folder `add` leaves them out too. */
	async #writeExcludes(tooBig: readonly string[]): Promise<void> {
		const key = tooBig.join("\0");
		if (key === this.#tooBig) return;
		this.#tooBig = key;
		const lines = tooBig.map((path) => `/${escapeIgnorePattern(path)}`);
		const text = `${this.#excludes}${lines.length > 0 ? `${lines.join("\n")}\n` : ""}`;
		await this.#workspace.fs.writeFileAtomic(this.#join(this.gitDir, "info", "exclude"), Buffer.from(text));
	}

	async #readRef(): Promise<string | undefined> {
		try {
			const text = Buffer.from(await this.#workspace.fs.readFile(this.#refFile))
				.toString("utf8")
				.trim();
			return /^[0-9a-f]{40,64}$/.test(text) ? text : undefined;
		} catch {
			return undefined;
		}
	}

	/** The files that differ from checkpoint `from` to checkpoint `to`. */
	async changes(from: string, to: string): Promise<FileChange[]> {
		if (from === to) return [];
		const output = await this.#git.output(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to]);
		const fields = output.toString("utf8").split("\0");
		const changes: FileChange[] = [];
		// The fields come in pairs (status, path); the split leaves one empty field after the last pair.
		for (let index = 0; ; index += 2) {
			const [kind, path] = [fields[index], fields[index + 1]];
			if (kind === undefined || path === undefined) break;
			changes.push({ status: kind.charAt(0) as FileChange["status"], path });
		}
		return changes;
	}

	/** Writes `paths` (relative, each in checkpoint `commit`) back as they were there: content, mode and kind. */
	async restore(commit: string, paths: readonly string[]): Promise<void> {
		if (paths.length === 0) return;
		await this.#workspace.fs.writeFileAtomic(this.#pathsFile, Buffer.from(paths.join("\0")));
		await this.#git.output([
			"restore",
			`--source=${commit}`,
			"--worktree",
			`--pathspec-from-file=${this.#pathsFile}`,
			"--pathspec-file-nul",
		]);
	}

	/** Deletes `paths` (relative) from the folder, then the folders that deleting them left empty. */
	async remove(paths: readonly string[]): Promise<void> {
		const fs = this.#workspace.fs;
		const parents = new Set<string>();
		for (const path of paths) {
			await fs.unlink(this.#join(this.workTree, path));
			const parts = path.split("/");
			for (let depth = parts.length - 1; depth > 0; depth--) parents.add(parts.slice(0, depth).join("/"));
		}
		const deepestFirst = [...parents].sort((a, b) => b.split("/").length - a.split("/").length);
		for (const folder of deepestFirst) {
			const absolute = this.#join(this.workTree, folder);
			const entries = await fs.readdir(absolute).catch(() => undefined);
			if (entries !== undefined && entries.length === 0) await fs.remove(absolute);
		}
	}
}

/** A path as an ignore pattern that matches exactly it (no wildcard, negation, comment or trimmed space). */
function escapeIgnorePattern(path: string): string {
	return path.replace(/[\\*?[\]!#]/g, (character) => `\\${character}`).replace(/ $/, "\\ ");
}

/** A ref written as git writes one (a temporary file renamed over it), synchronously, on this machine. */
function writeRefNow(path: string, commit: string): void {
	const temporary = `${path}.lock`;
	writeFileSync(temporary, `${commit}\n`);
	renameSync(temporary, path);
}

function hashOf(text: string): string {
	return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** `inner` relative to `outer` with `/`, when it is inside it. */
function relativeInside(outer: string, inner: string, join: (...parts: string[]) => string): string | undefined {
	const prefix = join(outer, "/");
	if (!inner.startsWith(prefix)) return undefined;
	return inner.slice(prefix.length).split("\\").join("/");
}
