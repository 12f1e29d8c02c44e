import { homedir } from "node:os";
import { dirname, join, posix } from "node:path";
import { createLocalWorkspace, type Workspace, type WorkspaceFileSystem } from "@gantry/tools";

/** One instructions file that joins the system prompt. */
export interface ContextFile {
	/** Where it was read (absolute, on the host it was read on). */
	path: string;
	/** Its text, cut to the size limit. */
	content: string;
	/** Bytes of the file left out because the limit was reached (absent when the whole file is in). */
	omittedBytes?: number;
}

/** The names looked for in each folder, in this order. */
export const CONTEXT_FILE_NAMES: readonly string[] = ["AGENTS.md", "CLAUDE.md"];

/** How many bytes of instruction files join the prompt at most, all files together (Codex's default too). */
export const CONTEXT_FILES_MAX_BYTES = 32 * 1024;

/** Options of `findContextFiles`. */
export interface FindContextFilesOptions {
	/** The host and working folder whose instructions are read (`createLocalWorkspace(cwd)` for this machine). */
	workspace: Workspace;
	/**
	 * The home folder of the user's own `~/.gantry/AGENTS.md`, always read on this machine (over SSH too, like
	 * `~/.gantry/settings.json`). Default: the local workspace's home, else `os.homedir()`.
	 */
	home?: string;
	/** The limit for all files together, in bytes. Default `CONTEXT_FILES_MAX_BYTES`. */
	maxBytes?: number;
}

/**
 * The instruction files a session in `workspace.cwd` follows, in the order they join the system prompt: the
 * user's `~/.gantry/AGENTS.md` first, then `AGENTS.md` and `CLAUDE.md` of each folder from the repository
 * root (the nearest folder holding `.git`; without one, only the working folder) down to the working
 * folder, so the most specific come last. A `CLAUDE.md` with the same text as the folder's `AGENTS.md` (a
 * link or a copy) is read once. Empty files, folders, devices and unreadable files are left out. Together
 * they are cut at `maxBytes` (the file that crosses the limit is cut at a line end and says how much is
 * missing; later ones are listed with nothing of their text). Never rejects for a file; rejects only when
 * the workspace itself fails.
 */
export async function findContextFiles(options: FindContextFilesOptions): Promise<ContextFile[]> {
	const { workspace } = options;
	const path = workspace.isLocal ? { join, dirname } : posix;
	const home = options.home ?? (workspace.isLocal ? workspace.home : homedir());
	const userFs = workspace.isLocal ? workspace.fs : createLocalWorkspace(home).fs;
	const userFile = join(home, ".gantry", "AGENTS.md");
	const candidates: { fs: WorkspaceFileSystem; paths: string[] }[] = [{ fs: userFs, paths: [userFile] }];
	for (const folder of await projectFolders(workspace.fs, workspace.cwd, path.dirname, path.join)) {
		const paths = CONTEXT_FILE_NAMES.map((name) => path.join(folder, name));
		// Working in ~/.gantry itself: its AGENTS.md is the user's file, read once.
		candidates.push({ fs: workspace.fs, paths: workspace.isLocal ? paths.filter((file) => file !== userFile) : paths });
	}
	const files: ContextFile[] = [];
	let budget = options.maxBytes ?? CONTEXT_FILES_MAX_BYTES;
	for (const { fs, paths } of candidates) {
		const inFolder: string[] = [];
		for (const filePath of paths) {
			const read = await readBounded(fs, filePath, budget);
			if (read === undefined || (read.text.trim() === "" && read.omittedBytes === 0)) continue;
			if (inFolder.includes(read.text)) continue;
			inFolder.push(read.text);
			const file: ContextFile = { path: filePath, content: read.text };
			if (read.omittedBytes > 0) file.omittedBytes = read.omittedBytes;
			files.push(file);
			// Once a file is cut the limit is spent: the files after it are listed, none of their text.
			budget = read.omittedBytes > 0 ? 0 : budget - read.keptBytes;
		}
	}
	return files;
}

/** The folders from the repository root down to `cwd` (only `cwd` when no parent holds `.git`). */
async function projectFolders(
	fs: WorkspaceFileSystem,
	cwd: string,
	dirname: (path: string) => string,
	joinPath: (...parts: string[]) => string,
): Promise<string[]> {
	const chain = [cwd];
	for (let folder = cwd; ; ) {
		if ((await fs.stat(joinPath(folder, ".git")).catch(() => undefined)) !== undefined) return chain.reverse();
		const parent = dirname(folder);
		if (parent === folder) return [cwd];
		folder = parent;
		chain.push(folder);
	}
}

/**
 * Reads at most `budget` bytes of a regular file as UTF-8, cut back to the last line end when it is cut;
 * undefined when it is not a readable file.
 */
async function readBounded(
	fs: WorkspaceFileSystem,
	path: string,
	budget: number,
): Promise<{ text: string; keptBytes: number; omittedBytes: number } | undefined> {
	const stat = await fs.stat(path).catch(() => undefined);
	if (stat?.kind !== "file") return undefined;
	let handle: Awaited<ReturnType<WorkspaceFileSystem["open"]>>;
	try {
		handle = await fs.open(path);
	} catch {
		return undefined;
	}
	try {
		// One byte past the budget tells a file that fits from one that does not (its size may have changed).
		const buffer = Buffer.alloc(Math.min(stat.size, budget) + 1);
		let length = 0;
		while (length < buffer.length) {
			const count = await handle.read(buffer, length, buffer.length - length, length);
			if (count === 0) break;
			length += count;
		}
		if (length <= budget) {
			const text = buffer.subarray(0, length).toString("utf8");
			return { text, keptBytes: length, omittedBytes: 0 };
		}
		let kept = buffer.subarray(0, budget);
		const lineEnd = kept.lastIndexOf(0x0a);
		if (lineEnd > 0) kept = kept.subarray(0, lineEnd + 1);
		// A cut inside a character leaves a replacement mark at the end: drop it.
		const text = kept.toString("utf8").replace(/\uFFFD+$/, "");
		const keptBytes = Buffer.byteLength(text);
		return { text, keptBytes, omittedBytes: Math.max(stat.size, length) - keptBytes };
	} catch {
		return undefined;
	} finally {
		await handle.close().catch(() => {});
	}
}
