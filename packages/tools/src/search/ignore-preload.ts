import { join } from "node:path";
import { type GitUserPlace, readRepositoryExcludes } from "./git-excludes.js";
import { GITIGNORE, type IgnoreFileReader } from "./ignore-rules.js";
import type { IgnoreFileReaderSync } from "./ignore-scopes.js";

/**
 * Gives `IgnoreScopes` (which asks synchronously) the ignore files of any file system: before a path is
 * checked, `loadFor` reads the `.git` and `.gitignore` of each folder on its way, once per folder.
 */
export class PreloadedIgnoreFiles implements IgnoreFileReaderSync {
	private readonly texts = new Map<string, string | undefined>();
	private readonly existing = new Map<string, boolean>();
	/** Each folder's reading, by its path relative to the root, once started. */
	private readonly loading = new Map<string, Promise<void>>();

	constructor(
		private readonly root: string,
		private readonly reader: IgnoreFileReader,
		private readonly gitUser?: GitUserPlace,
	) {}

	/** Remembers every text read through it, so the synchronous readers later find them. */
	private readonly recording: IgnoreFileReader = {
		readText: async (path) => {
			if (!this.texts.has(path)) this.texts.set(path, await this.reader.readText(path));
			return this.texts.get(path);
		},
		exists: (path) => this.reader.exists(path),
	};

	/**
	 * Reads the ignore files of every folder from the root down to the folder holding `relativePath`: each
	 * folder's `.gitignore`, and for a nested repository its excludes (`readRepositoryExcludes`). Calls may
	 * overlap: each folder is read once, and every call waits until the folders on its way are read.
	 */
	async loadFor(relativePath: string): Promise<void> {
		const parts = relativePath.split("/");
		let folder = "";
		for (const [index, part] of parts.entries()) {
			let loading = this.loading.get(folder);
			if (loading === undefined) {
				loading = this.loadFolder(folder);
				this.loading.set(folder, loading);
			}
			await loading;
			if (index < parts.length - 1) folder = folder === "" ? part : `${folder}/${part}`;
		}
	}

	private async loadFolder(folder: string): Promise<void> {
		const absolute = join(this.root, folder);
		const git = join(absolute, ".git");
		const gitignore = join(absolute, GITIGNORE);
		const [hasGit, text] = await Promise.all([this.reader.exists(git), this.reader.readText(gitignore)]);
		this.existing.set(git, hasGit);
		this.texts.set(gitignore, text);
		if (hasGit && folder !== "") await readRepositoryExcludes(absolute, this.recording, this.gitUser);
	}

	readText(path: string): string | undefined {
		return this.texts.get(path);
	}

	exists(path: string): boolean {
		return this.existing.get(path) ?? false;
	}
}
