import { dirname, join, relative, sep } from "node:path";
import { type GitUserPlace, type RepositoryExcludes, readRepositoryExcludes } from "./git-excludes.js";
import { GitignoreFile } from "./gitignore-file.js";
import type { IgnoreFileReader } from "./ignore-readers.js";

export type { IgnoreFileReader } from "./ignore-readers.js";

interface GitignoreMatcher {
	readonly file: GitignoreFile;
	/** Prepended to the search-relative path (for .gitignore files above the search folder). */
	readonly prefix: string;
	/** Characters cut from the start of the search-relative path (for .gitignore files below it). */
	readonly strip: number;
}

/** The name git and ripgrep use for per-folder ignore files. */
export const GITIGNORE = ".gitignore";

/**
 * The .gitignore rules in force in one folder of a search: the files of the folder and of its parents,
 * deepest first, as git and ripgrep apply them (the deepest file with a matching rule decides, and a
 * negation like `!keep.log` re-includes). Paths are relative to the search folder with `/` separators.
 * Immutable: entering a folder returns new rules.
 */
export class IgnoreRules {
	private constructor(
		private readonly matchers: readonly GitignoreMatcher[],
		/** Where the user's git settings are, for the excludes of repositories met below (`enter`). */
		readonly gitUser?: GitUserPlace,
	) {}

	/** No rules at all. */
	static readonly none = new IgnoreRules([]);

	/**
	 * The rules of the .gitignore files above `root` that apply inside it: those of each parent up to
	 * and including the repository root (the first folder holding `.git`), or up to the file-system root
	 * outside a repository. Folders between such a file and `root` are not themselves treated as ignored,
	 * so searching inside an ignored folder (say `dist`) on purpose finds its files. Below all of those, as in
	 * git, come the repository's `info/exclude` and the user's `core.excludesFile` (default
	 * `~/.config/git/ignore`; read only when `gitUser` says where the user's files are).
	 */
	static async forRoot(root: string, reader: IgnoreFileReader, gitUser?: GitUserPlace): Promise<IgnoreRules> {
		const matchers: GitignoreMatcher[] = [];
		let repositoryRoot: string | undefined;
		if (await reader.exists(join(root, ".git"))) repositoryRoot = root;
		let child = root;
		let folder = dirname(root);
		while (repositoryRoot === undefined && folder !== child) {
			const text = await reader.readText(join(folder, GITIGNORE));
			if (text !== undefined) matchers.unshift(ancestorMatcher(text, relativeFrom(folder, root)));
			if (await reader.exists(join(folder, ".git"))) repositoryRoot = folder;
			child = folder;
			folder = dirname(folder);
		}
		if (repositoryRoot !== undefined) {
			const excludes = await readRepositoryExcludes(repositoryRoot, reader, gitUser);
			const between = repositoryRoot === root ? undefined : relativeFrom(repositoryRoot, root);
			const texts = [excludes.userExcludes, excludes.infoExclude].filter((text) => text !== undefined);
			matchers.unshift(
				...texts.map((text) =>
					between === undefined
						? { file: new GitignoreFile(text), prefix: "", strip: 0 }
						: ancestorMatcher(text, between),
				),
			);
		}
		return new IgnoreRules(matchers, gitUser);
	}

	/**
	 * The rules inside the folder `relativeFolder` ("" for the search folder) given what it holds: a
	 * folder with `.git` starts a new repository (outer rules stop applying; its `excludes`, read by the
	 * caller with `readRepositoryExcludes`, come first), and its own .gitignore text adds rules.
	 */
	enter(
		relativeFolder: string,
		contents: { hasGit: boolean; gitignore: string | undefined; excludes?: RepositoryExcludes | undefined },
	): IgnoreRules {
		const strip = relativeFolder === "" ? 0 : relativeFolder.length + 1;
		const local = (text: string): GitignoreMatcher => ({ file: new GitignoreFile(text), prefix: "", strip });
		let base = this.matchers;
		if (contents.hasGit && relativeFolder !== "") {
			const { userExcludes, infoExclude } = contents.excludes ?? {};
			base = [userExcludes, infoExclude].filter((text) => text !== undefined).map(local);
		}
		if (contents.gitignore === undefined) return base === this.matchers ? this : new IgnoreRules(base, this.gitUser);
		return new IgnoreRules([...base, local(contents.gitignore)], this.gitUser);
	}

	/** Whether any rule is in force. */
	get isEmpty(): boolean {
		return this.matchers.length === 0;
	}

	/**
	 * Whether `relativePath` (relative to the search folder, below the folder these rules were entered
	 * for) is ignored. Its parent folders are assumed not ignored: callers walk top-down and skip
	 * ignored folders without descending. `name` is the path's last segment, when the caller has it.
	 */
	ignores(relativePath: string, isDirectory: boolean, name?: string): boolean {
		const matchers = this.matchers;
		if (matchers.length === 0) return false;
		const entryName = name ?? relativePath.slice(relativePath.lastIndexOf("/") + 1);
		for (let index = matchers.length - 1; index >= 0; index--) {
			const matcher = matchers[index];
			if (matcher === undefined) continue;
			const local = matcher.strip === 0 ? matcher.prefix + relativePath : relativePath.slice(matcher.strip);
			const verdict = matcher.file.test(local, entryName, isDirectory);
			if (verdict !== undefined) return verdict;
		}
		return false;
	}
}

/** `to` relative to `from`, with `/` separators. */
function relativeFrom(from: string, to: string): string {
	return relative(from, to).split(sep).join("/");
}

/** Escapes a folder name for use as a literal gitignore pattern. */
function escapeName(name: string): string {
	return name.replace(/[\\*?[\]!#]/g, (character) => `\\${character}`).replace(/ $/, "\\ ");
}

/**
 * A parent's .gitignore. The folders from it down to the search folder are re-included at the end,
 * because the `ignore` package treats a path under an ignored folder as ignored; ripgrep, asked to search
 * an ignored folder, searches it and applies the rules to what is inside.
 */
function ancestorMatcher(text: string, between: string): GitignoreMatcher {
	const parts = between.split("/");
	const reinclude: string[] = [];
	for (let index = 1; index <= parts.length; index++) {
		reinclude.push(`!/${parts.slice(0, index).map(escapeName).join("/")}/`);
	}
	return { file: new GitignoreFile(text, reinclude), prefix: `${between}/`, strip: 0 };
}
