import { join } from "node:path";
import { GITIGNORE, type IgnoreFileReader } from "./ignore-rules.js";
import type { IgnoreFileReaderSync } from "./ignore-scopes.js";

/**
 * Gives `IgnoreScopes` (which asks synchronously) the ignore files of any file system: before a path is
 * checked, `loadFor` reads the `.git` and `.gitignore` of each folder on its way, once per folder.
 */
export class PreloadedIgnoreFiles implements IgnoreFileReaderSync {
	private readonly texts = new Map<string, string | undefined>();
	private readonly existing = new Map<string, boolean>();
	private readonly loaded = new Set<string>();

	constructor(
		private readonly root: string,
		private readonly reader: IgnoreFileReader,
	) {}

	/** Reads the ignore files of every folder from the root down to the folder holding `relativePath`. */
	async loadFor(relativePath: string): Promise<void> {
		const parts = relativePath.split("/");
		let folder = "";
		for (let index = 0; index < parts.length; index++) {
			if (!this.loaded.has(folder)) {
				this.loaded.add(folder);
				const absolute = join(this.root, folder);
				const git = join(absolute, ".git");
				const gitignore = join(absolute, GITIGNORE);
				const [hasGit, text] = await Promise.all([this.reader.exists(git), this.reader.readText(gitignore)]);
				this.existing.set(git, hasGit);
				this.texts.set(gitignore, text);
			}
			if (index < parts.length - 1) folder = folder === "" ? parts[index] : `${folder}/${parts[index]}`;
		}
	}

	readText(path: string): string | undefined {
		return this.texts.get(path);
	}

	exists(path: string): boolean {
		return this.existing.get(path) ?? false;
	}
}
