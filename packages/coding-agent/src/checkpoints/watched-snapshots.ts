import { lstatSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join } from "node:path";
import { FolderWatch, NEW_ENTRY_LIMIT } from "./folder-watch.js";
import { FOLDER_MODE, LooseObjectWriter } from "./git-objects.js";
import type { GitRunner } from "./git-runner.js";
import { nameOf, TreeModel } from "./tree-model.js";

/** Paths named to one `git check-ignore` (a command line has a length limit). */
const CHECK_IGNORE_BATCH = 400;

/** Changes to these decide what git records or how: a checkpoint that sees one lists the folder with git. */
const RULE_FILES = new Set([".gitignore", ".gitattributes", ".git"]);

/** A tree written from the watch's changes, and the files left out for their size. */
export interface WatchedTree {
	tree: string;
	skipped: { path: string; size: number }[];
}

/**
 * Checkpoints of a local folder from what a `FolderWatch` saw change: only those paths are looked at,
 * hashed and written (blobs, the trees above them) into the shadow repository, without a git process
 * unless a new path needs git's ignore rules. Everything else (the first checkpoint, a folder with
 * `.gitattributes`, a changed ignore file, events that may have been lost) is left to a full listing
 * with git, after which `reset` loads its tree.
 */
export class WatchedSnapshots {
	readonly #git: GitRunner;
	readonly #workTree: string;
	readonly #watch: FolderWatch;
	readonly #objects: LooseObjectWriter;
	readonly #skip: (relative: string) => boolean;
	#model: TreeModel | undefined;
	/** Files recorded here since git last listed the folder: its index does not know them yet. */
	readonly #recorded = new Set<string>();

	private constructor(
		git: GitRunner,
		workTree: string,
		gitDir: string,
		watch: FolderWatch,
		skip: (path: string) => boolean,
	) {
		this.#git = git;
		this.#workTree = workTree;
		this.#watch = watch;
		this.#objects = new LooseObjectWriter(gitDir);
		this.#skip = skip;
	}

	/** Watches every folder of `workTree` git does not ignore; rejects when that is not possible here. */
	static async start(
		git: GitRunner,
		workTree: string,
		gitDir: string,
		cookieFolder: string,
		skip: (relative: string) => boolean,
	): Promise<WatchedSnapshots> {
		const listing = await git.output(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"]);
		const listed = listing.toString("utf8").split("\0");
		// `--directory` also names a folder holding only ignored files (and then those files too): only a
		// folder with nothing listed under it may be ignored itself, and check-ignore says whether it is.
		const candidates = listed
			.filter((path, index) => path.endsWith("/") && !(listed[index + 1] ?? "").startsWith(path))
			.map((path) => path.slice(0, -1));
		const ignored = await checkIgnore(git, candidates);
		if (ignored === undefined) throw new Error("git check-ignore failed");
		const watch = await FolderWatch.start(workTree, cookieFolder, ignored, skip);
		return new WatchedSnapshots(git, workTree, gitDir, watch, skip);
	}

	/**
	 * Loads the tree a full listing with git just wrote; later snapshots start from it. False when this
	 * folder's checkpoints are git's to write (a `.gitattributes` may filter content, an odd name).
	 */
	async reset(tree: string): Promise<boolean> {
		if (this.#model?.tree !== tree) {
			this.#model = undefined;
			const listing = await this.#git.output(["ls-tree", "-r", "-t", "-z", "--full-tree", tree]);
			this.#model = TreeModel.parse(tree, listing);
		}
		return this.#model !== undefined && !this.#model.hasAttributes;
	}

	/** The tree of the folder now, from the changes seen since the last one; undefined: list it with git. */
	async snapshot(limit: number): Promise<WatchedTree | undefined> {
		const model = this.#model;
		if (model === undefined || model.hasAttributes) return undefined;
		// Whatever happens next, the model is only trusted again after a full listing.
		this.#model = undefined;
		try {
			const dirty = await this.#watch.settle();
			if (dirty === undefined || dirty.length > NEW_ENTRY_LIMIT) return undefined;
			// The folder itself replaced (or gone): its watch watches something else.
			if (lstatOrNothing(this.#workTree)?.ino !== this.#watch.watchedInode("")) return undefined;
			const result = await this.#apply(model, dirty, limit);
			if (result === undefined) return undefined;
			this.#model = model;
			return result;
		} catch {
			// A file that could not be read, an object that could not be written: git lists the folder instead.
			return undefined;
		}
	}

	/** The files recorded since the last listing with git (and forgets them: the listing adds them). */
	takeRecorded(): string[] {
		const paths = [...this.#recorded];
		this.#recorded.clear();
		return paths;
	}

	close(): void {
		this.#watch.close();
	}

	async #apply(model: TreeModel, dirty: string[], limit: number): Promise<WatchedTree | undefined> {
		const record = new Set<string>();
		const newFiles: string[] = [];
		const newFolders: string[] = [];
		const paths = dirty.filter((path) => !this.#skip(path.split("/")[0] ?? "")).sort();
		if (paths.some((path) => RULE_FILES.has(nameOf(path)) || path.includes("\uFFFD"))) return undefined;
		const stats = paths.map((path) => lstatOrNothing(join(this.#workTree, path)));
		paths.forEach((path, index) => {
			if (newFolders.some((folder) => path.startsWith(`${folder}/`))) return;
			const stat = stats[index];
			const entry = model.entry(path);
			if (stat === undefined) {
				model.delete(path);
				this.#watch.forget(path);
			} else if (stat.isDirectory()) {
				// A nested repository recorded by a whole-folder add stays as it was; a folder still watched
				// (same inode) reports its own entries' changes.
				if (entry?.mode === "160000" || this.#watch.watchedInode(path) === stat.ino) return;
				model.delete(path);
				this.#watch.forget(path);
				newFolders.push(path);
			} else if (stat.isFile() || stat.isSymbolicLink()) {
				if (entry !== undefined && entry.mode !== FOLDER_MODE && entry.mode !== "160000") record.add(path);
				else {
					model.delete(path);
					this.#watch.forget(path);
					newFiles.push(path);
				}
			} else model.delete(path);
		});
		if (newFiles.length > 0 || newFolders.length > 0) {
			const found = await this.#newPaths(newFiles, newFolders);
			if (found === undefined) return undefined;
			for (const path of found) record.add(path);
		}
		const skipped: WatchedTree["skipped"] = [];
		for (const path of record) {
			const blob = this.#blob(path, limit);
			if (blob === "gone") model.delete(path);
			else if (blob === "other") continue;
			else if ("size" in blob) skipped.push({ path, size: blob.size });
			else {
				model.set(path, blob);
				this.#recorded.add(path);
			}
		}
		return { tree: model.write(this.#objects), skipped };
	}

	/**
	 * The files to record among paths that are new to the checkpoint: git's ignore rules decide, first for
	 * the new paths themselves (an ignored build folder is not walked), then for what the new folders hold
	 * (they are watched from now on, but for ignored ones). Undefined when there are too many or odd names.
	 */
	async #newPaths(newFiles: string[], newFolders: string[]): Promise<string[] | undefined> {
		const first = await checkIgnore(this.#git, [...newFiles, ...newFolders]);
		if (first === undefined) return undefined;
		const files = newFiles.filter((path) => !first.has(path));
		const inside: string[] = [];
		const folders = new Set<string>();
		for (const folder of newFolders.filter((path) => !first.has(path))) {
			const added = await this.#watch.add(folder);
			if (added === undefined) return undefined;
			for (const path of added.folders) if (path !== folder) folders.add(path);
			inside.push(...added.files);
			if (folders.size + inside.length > NEW_ENTRY_LIMIT) return undefined;
		}
		if (inside.length === 0) return files;
		const candidates = [...folders, ...inside];
		if (candidates.some((path) => path.includes("\uFFFD"))) return undefined;
		const ignored = await checkIgnore(this.#git, candidates);
		if (ignored === undefined) return undefined;
		const ignoredFolders = [...folders].filter((folder) => ignored.has(folder));
		for (const folder of ignoredFolders) this.#watch.forget(folder);
		for (const path of inside) {
			if (ignored.has(path) || ignoredFolders.some((folder) => path.startsWith(`${folder}/`))) continue;
			files.push(path);
		}
		return files;
	}

	/**
	 * Reads and stores one file or link as a blob. Synchronous, like the object writes: a few small files
	 * are read faster so than through the thread pool of a busy machine.
	 */
	#blob(path: string, limit: number) {
		const absolute = join(this.#workTree, path);
		const stat = lstatOrNothing(absolute);
		if (stat === undefined) return "gone" as const;
		if (stat.isSymbolicLink()) {
			const target = attempt(() => readlinkSync(absolute, { encoding: "buffer" }));
			if (target === undefined) return "gone" as const;
			return { mode: "120000", oid: this.#objects.write("blob", target) };
		}
		if (!stat.isFile()) return "other" as const;
		if (stat.size > limit) return { size: stat.size };
		const content = attempt(() => readFileSync(absolute));
		// Unreadable: the checkpoint keeps what it had, as `git add --ignore-errors` does.
		if (content === undefined) return lstatOrNothing(absolute) === undefined ? ("gone" as const) : ("other" as const);
		if (content.length > limit) return { size: content.length };
		// Git records one permission: whether the owner may execute the file.
		return { mode: stat.mode & 0o100 ? "100755" : "100644", oid: this.#objects.write("blob", content) };
	}
}

/** The paths (relative) git's ignore rules leave out, or undefined when git could not say. */
async function checkIgnore(git: GitRunner, paths: readonly string[]): Promise<Set<string> | undefined> {
	const ignored = new Set<string>();
	for (let start = 0; start < paths.length; start += CHECK_IGNORE_BATCH) {
		const batch = paths.slice(start, start + CHECK_IGNORE_BATCH);
		// check-ignore takes no pathspec magic, literal included; a name starting with ":" would be read as magic.
		if (batch.some((path) => path.startsWith(":"))) return undefined;
		const result = await git.run(["check-ignore", "--", ...batch], { GIT_LITERAL_PATHSPECS: "0" });
		// Exit 1: none of them is ignored.
		if (result.exitCode !== 0 && result.exitCode !== 1) return undefined;
		for (const line of result.stdout.toString("utf8").split("\n")) {
			// A quoted line is a name git escaped (a newline or quote in it): too odd to match reliably.
			if (line.startsWith('"')) return undefined;
			if (line !== "") ignored.add(line);
		}
	}
	return ignored;
}

function lstatOrNothing(path: string): Stats | undefined {
	return attempt(() => lstatSync(path));
}

/** What `read` returns, or undefined when it fails (the path went away meanwhile, or became unreadable). */
function attempt<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}
