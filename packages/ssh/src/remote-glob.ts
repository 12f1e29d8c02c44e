import { compileFindPattern, type WorkspaceProcesses } from "@gantry/tools";
import { shellQuote } from "./quote.js";

/**
 * rg's walk with the local find's rules: hidden files listed, .gitignore files honoured inside and
 * outside a repository, and so are the repository's `.git/info/exclude` and the user's `core.excludesFile`, `.git` and `node_modules` never entered, links followed so that a link to a
 * file is listed as a file. The pattern is applied here, not by `--glob`, because an rg include glob
 * would bring back files .gitignore leaves out.
 */
const WALK_FLAGS = [
	"--files",
	"--follow",
	"--null",
	"--no-config",
	"--no-messages",
	"--hidden",
	"--no-require-git",
	"--no-ignore-dot",
	"--glob",
	"!.git",
	"--glob",
	"!node_modules",
]
	.map(shellQuote)
	.join(" ");
const LINKS_MARK = "\0gantry-links\0";

/**
 * The script: rg's listing, a mark, then every symbolic link below the folder (`find -type l`). The local
 * find does not enter linked folders, so what rg found through one is dropped again.
 */
function globScript(rg: string): string {
	return [
		`${shellQuote(rg)} ${WALK_FLAGS}`,
		"status=$?",
		"printf '\\0gantry-links\\0'",
		"find . \\( -name .git -o -name node_modules \\) -prune -o -type l -print0 2>/dev/null",
		'exit "$status"',
	].join("\n");
}

/**
 * `Workspace.glob` over the host's rg: lists the files under `cwd` remotely and keeps those whose
 * relative path matches `pattern`, read exactly as the local find reads it (`compileFindPattern`: braces
 * and ranges expanded, a pattern without `/` matches names at any depth, `!` alternatives exclude).
 */
export function createRemoteGlob(processes: WorkspaceProcesses, rg: string) {
	const script = globScript(rg);
	return async (pattern: string, cwd: string, signal: AbortSignal | undefined): Promise<string[]> => {
		const chunks: Buffer[] = [];
		const exit = await processes.spawn("/bin/sh", ["-c", script], {
			cwd,
			...(signal ? { signal } : {}),
			onStdout: (chunk) => {
				chunks.push(chunk);
				return undefined;
			},
		});
		// 1 is "no files"; 2 is "some folder could not be read", and the rest is still listed.
		if (exit.exitCode !== 0 && exit.exitCode !== 1 && exit.exitCode !== 2) {
			throw new Error(`rg --files failed on the host (${exit.signal ?? `exit code ${exit.exitCode}`}).`);
		}
		const output = Buffer.concat(chunks).toString("utf8");
		const mark = output.lastIndexOf(LINKS_MARK);
		const files = (mark < 0 ? output : output.slice(0, mark)).split("\0").filter(Boolean);
		const links =
			mark < 0
				? []
				: output
						.slice(mark + LINKS_MARK.length)
						.split("\0")
						.filter(Boolean);
		const linkedFolders = links.map((link) => `${link.replace(/^\.\//, "")}/`);
		const compiled = compileFindPattern(pattern);
		return files.filter(
			(file) =>
				compiled.matches(file, file.slice(file.lastIndexOf("/") + 1)) &&
				!linkedFolders.some((folder) => file.startsWith(folder)),
		);
	};
}
