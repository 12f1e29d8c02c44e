import { join } from "node:path";
import { readRepositoryExcludesSync } from "./git-excludes.js";
import type { IgnoreFileReaderSync } from "./ignore-readers.js";
import { GITIGNORE, type IgnoreRules } from "./ignore-rules.js";

export type { IgnoreFileReaderSync } from "./ignore-readers.js";

/** What a folder's listing says about its ignore files. */
export interface FolderIgnoreFiles {
	hasGit: boolean;
	hasGitignore: boolean;
}

function parentOf(relativePath: string): string {
	const slash = relativePath.lastIndexOf("/");
	return slash < 0 ? "" : relativePath.slice(0, slash);
}

/**
 * The ignore rules of every folder of one local search, worked out on demand (reading each folder's
 * .gitignore once) for code that meets folders in no particular order: the ripgrep engine's check of the
 * files rg reported.
 */
export class IgnoreScopes {
	private readonly scopes = new Map<string, IgnoreRules | null>();

	/**
	 * @param root Absolute path of the search folder.
	 * @param ancestors The rules from above `root` (`IgnoreRules.forRoot`).
	 */
	constructor(
		private readonly root: string,
		private readonly ancestors: IgnoreRules,
		private readonly reader: IgnoreFileReaderSync,
	) {}

	/**
	 * The rules in force inside `relativeFolder` ("" for the search folder), or null when the folder
	 * itself is ignored (or lies in an ignored folder). Pass `files` when the folder's listing is at hand,
	 * which saves looking for its ignore files.
	 */
	rulesFor(relativeFolder: string, files?: FolderIgnoreFiles): IgnoreRules | null {
		let scope = this.scopes.get(relativeFolder);
		if (scope === undefined) {
			scope = this.compute(relativeFolder, files);
			this.scopes.set(relativeFolder, scope);
		}
		return scope;
	}

	/** Whether the file or folder at `relativePath` is ignored, its parent folders included. */
	ignores(relativePath: string, isDirectory: boolean): boolean {
		const rules = this.rulesFor(parentOf(relativePath));
		return rules === null || rules.ignores(relativePath, isDirectory);
	}

	private compute(relativeFolder: string, files: FolderIgnoreFiles | undefined): IgnoreRules | null {
		let outer = this.ancestors;
		if (relativeFolder !== "") {
			const parent = this.rulesFor(parentOf(relativeFolder));
			if (parent === null || parent.ignores(relativeFolder, true)) return null;
			outer = parent;
		}
		if (files !== undefined && !files.hasGit && !files.hasGitignore) return outer;
		const folder = join(this.root, relativeFolder);
		const hasGit = files ? files.hasGit : this.reader.exists(join(folder, ".git"));
		const gitignore = files && !files.hasGitignore ? undefined : this.reader.readText(join(folder, GITIGNORE));
		const excludes =
			hasGit && relativeFolder !== ""
				? readRepositoryExcludesSync(folder, this.reader, this.ancestors.gitUser)
				: undefined;
		return outer.enter(relativeFolder, { hasGit, gitignore, excludes });
	}
}
