import { type Dirent, readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import fastGlob from "fast-glob";
import { ABORTED_MESSAGE, throwIfAborted } from "../../abort.js";
import { errorCode } from "../../error-text.js";
import { ALWAYS_SKIPPED_FOLDERS } from "../../search/glob-walk.js";
import { IgnoreRules } from "../../search/ignore-rules.js";
import { IgnoreScopes } from "../../search/ignore-scopes.js";
import { localIgnoreFileReaderSync } from "./file-system.js";

/** How long the walk may hold the event loop before letting timers and I/O run. */
const SLICE_MS = 12;

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void;

const reader = {
	readText: async (path: string) => localIgnoreFileReaderSync.readText(path),
	exists: async (path: string) => localIgnoreFileReaderSync.exists(path),
};

/**
 * The local `find` glob: fast-glob over `cwd` with `dot: true` (hidden files included) and
 * `baseNameMatch` (a pattern without `/` matches file names at any depth), returning regular files and
 * links to files (links are not followed into folders). fast-glob lists folders through an adapter
 * that drops `.git`, `node_modules` and whatever the .gitignore files ignore before fast-glob sees the
 * entries, so ignored folders are never entered. Paths are relative to `cwd` with `/`, unsorted.
 * Rejects with `Operation aborted` when `signal` fires.
 */
export async function localGlob(pattern: string, cwd: string, signal: AbortSignal | undefined): Promise<string[]> {
	throwIfAborted(signal);
	const scopes = new IgnoreScopes(cwd, await IgnoreRules.forRoot(cwd, reader), localIgnoreFileReaderSync);
	let sliceStart = performance.now();
	const cwdPrefix = cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;

	// Callbacks are never called synchronously (fast-glob would recurse), and once a time slice is
	// used up they wait for the next turn of the event loop, so timers, I/O and aborts get through.
	const deliver = (callback: ReaddirCallback, error: NodeJS.ErrnoException | null, entries: Dirent[]) => {
		if (performance.now() - sliceStart < SLICE_MS) {
			queueMicrotask(() => callback(error, entries));
			return;
		}
		setImmediate(() => {
			sliceStart = performance.now();
			callback(signal?.aborted ? abortError() : error, entries);
		});
	};

	const listFolder = (path: string, callback: ReaddirCallback) => {
		if (signal?.aborted) {
			deliver(callback, abortError(), []);
			return;
		}
		let dirents: Dirent[];
		try {
			dirents = readdirSync(path, { withFileTypes: true });
		} catch (error) {
			const code = errorCode(error);
			// Unreadable or vanished folders are skipped, as rg and fd do.
			const skipped = code === "EACCES" || code === "EPERM" || code === "ENOENT" || code === "ENOTDIR";
			deliver(callback, skipped ? null : (error as NodeJS.ErrnoException), []);
			return;
		}
		const folder = path === cwd ? "" : path.slice(cwdPrefix.length).split(sep).join("/");
		let hasGit = false;
		let hasGitignore = false;
		for (const dirent of dirents) {
			if (dirent.name === ".git") hasGit = true;
			else if (dirent.name === ".gitignore" && !dirent.isDirectory()) hasGitignore = true;
		}
		let kept: Dirent[] = [];
		try {
			const rules = scopes.rulesFor(folder, { hasGit, hasGitignore });
			if (rules !== null) kept = keptEntries(path, folder, dirents, rules);
		} catch (error) {
			deliver(callback, error as NodeJS.ErrnoException, []);
			return;
		}
		deliver(callback, null, kept);
	};

	const files = await fastGlob(pattern, {
		cwd,
		dot: true,
		baseNameMatch: true,
		onlyFiles: true,
		followSymbolicLinks: false,
		unique: false,
		fs: {
			readdir: ((path: string, _options: unknown, callback: ReaddirCallback) =>
				listFolder(path, callback)) as unknown as typeof import("node:fs").readdir,
		},
	}).catch((error: unknown) => {
		throwIfAborted(signal);
		throw error;
	});
	throwIfAborted(signal);
	if (fastGlob.isDynamicPattern(pattern)) return files;
	// A pattern without wildcards is looked up directly, never listed: check it as a listing would.
	const kept: string[] = [];
	for (const file of files) {
		if (file.split("/").some((part) => ALWAYS_SKIPPED_FOLDERS.includes(part))) continue;
		if (!scopes.ignores(file, false)) kept.push(file);
	}
	return kept;
}

/**
 * The entries fast-glob gets to see: no `.git` or `node_modules` folder, nothing the rules ignore, and
 * a link to a file passed as the file it points to (links to folders stay links, which fast-glob
 * neither enters nor returns). The listing itself is handed on when nothing is left out.
 */
function keptEntries(path: string, folder: string, dirents: Dirent[], rules: IgnoreRules): Dirent[] {
	let kept: Dirent[] | undefined;
	for (let index = 0; index < dirents.length; index++) {
		const dirent = dirents[index];
		const name = dirent.name;
		const isDirectory = dirent.isDirectory();
		const isLink = !isDirectory && dirent.isSymbolicLink();
		let replacement: Dirent | undefined = dirent;
		if ((isDirectory || isLink) && ALWAYS_SKIPPED_FOLDERS.includes(name)) replacement = undefined;
		else if (!rules.isEmpty && rules.ignores(folder === "" ? name : `${folder}/${name}`, isDirectory, name))
			replacement = undefined;
		else if (isLink && isFileTarget(join(path, name))) replacement = fileDirent(name);
		if (replacement === dirent && kept === undefined) continue;
		kept ??= dirents.slice(0, index);
		if (replacement !== undefined) kept.push(replacement);
	}
	return kept ?? dirents;
}

function abortError(): NodeJS.ErrnoException {
	return Object.assign(new Error(ABORTED_MESSAGE), { code: "ABORT_ERR" });
}

/** A stand-in directory entry for a link to a file. */
function fileDirent(name: string): Dirent {
	const no = () => false;
	return {
		name,
		isFile: () => true,
		isDirectory: no,
		isSymbolicLink: no,
		isBlockDevice: no,
		isCharacterDevice: no,
		isFIFO: no,
		isSocket: no,
	} as unknown as Dirent;
}

function isFileTarget(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
