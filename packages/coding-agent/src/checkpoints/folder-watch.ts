import { type FSWatcher, rmSync, watch, writeFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** How long a checkpoint waits for its cookie's event before it trusts the watch no more. */
const COOKIE_TIMEOUT_MS = 2000;

/** At most this many folders are watched (one inotify watch each); a bigger tree is listed with git. */
const FOLDER_LIMIT = 50_000;

/** Past this many entries under new folders, a checkpoint lists the whole folder with git instead. */
export const NEW_ENTRY_LIMIT = 2000;

/**
 * Events delivered to every watch of this thread (folders and cookies, all `FolderWatch`es). libuv reads all of
 * a thread's `fs.watch`es through one inotify descriptor, so they share one kernel queue and its limit: a
 * flood in one session's folder can overflow it and drop the events of another folder, which alone saw
 * almost nothing. A watch therefore judges a possible overflow by this count, not by its own events.
 */
let eventsInThread = 0;

/** What `add` found under a new folder (relative paths), its folders now watched. */
export interface AddedFolder {
	folders: string[];
	files: string[];
}

/**
 * Knows which paths of a local folder changed since the last checkpoint without looking at every file:
 * one inotify watch per folder git does not ignore (Node's `fs.watch` of a folder reports its direct
 * entries). A checkpoint first writes a cookie file in a watched folder outside the project and waits
 * for its event: the kernel queues every watch's events in one queue per process (libuv keeps one
 * inotify descriptor), so once the cookie's event is in, every change made before it has been seen.
 * When events may have been lost (the queue, shared with every other watch of the thread, may have
 * overflowed; a watch failed; a cookie never came), the checkpoint is told to list the folder with git.
 * Linux only: elsewhere no single queue orders the events.
 */
export class FolderWatch {
	readonly #root: string;
	readonly #cookieFolder: string;
	readonly #watchers = new Map<string, { watcher: FSWatcher; inode: number }>();
	#cookieWatcher: FSWatcher | undefined;
	#dirty = new Set<string>();
	/** `eventsInThread` when the last checkpoint's cookie arrived (or the watch started). */
	#eventsBefore = eventsInThread;
	#broken: string | undefined;
	#cookieCount = 0;
	readonly #cookieWaiters = new Map<string, () => void>();
	readonly #eventLimit: number;

	private constructor(root: string, cookieFolder: string, eventLimit: number) {
		this.#root = root;
		this.#cookieFolder = cookieFolder;
		this.#eventLimit = eventLimit;
	}

	/**
	 * Watches `root` and every folder under it except `.git`, nested repositories, the folders `skip`
	 * names and those in `ignored` (relative, without `/`). Rejects when a watch cannot be set (the
	 * system's watch limit reached).
	 */
	static async start(
		root: string,
		cookieFolder: string,
		ignored: ReadonlySet<string>,
		skip: (relative: string) => boolean,
	): Promise<FolderWatch> {
		const queued = await readNumber("/proc/sys/fs/inotify/max_queued_events", 16384);
		// Watches count against a limit per user that editors and other tools share: take a quarter at most.
		const folderLimit = Math.min(
			FOLDER_LIMIT,
			Math.floor((await readNumber("/proc/sys/fs/inotify/max_user_watches", 8192)) / 4),
		);
		// An overflow drops events but only once the queue is full: a stretch that brought half as many
		// events as the queue holds is treated as one that may have lost some.
		const folderWatch = new FolderWatch(root, cookieFolder, Math.max(64, Math.floor(queued / 2)));
		try {
			folderWatch.#cookieWatcher = watch(cookieFolder, { persistent: false }, (_type, name) => {
				eventsInThread++;
				if (typeof name === "string") folderWatch.#cookieWaiters.get(name)?.();
			});
			folderWatch.#cookieWatcher.on("error", (error) => folderWatch.#fail(`cookie watch: ${String(error)}`));
			const pending = [""];
			while (pending.length > 0) {
				const folder = pending.pop() as string;
				const found = await folderWatch.#watchFolder(folder, (relative) => ignored.has(relative) || skip(relative));
				pending.push(...(found?.folders ?? []));
				if (folderWatch.#watchers.size + pending.length > folderLimit) {
					throw new Error(`more than ${folderLimit} folders to watch`);
				}
			}
		} catch (error) {
			folderWatch.close();
			throw error;
		}
		return folderWatch;
	}

	/**
	 * The paths (relative) whose entries changed since the last call: files and folders created, written,
	 * removed, renamed or with new modes. Undefined when some may be missing: list the folder with git.
	 */
	async settle(): Promise<string[] | undefined> {
		if (this.#broken !== undefined) return undefined;
		const name = `cookie-${process.pid}-${++this.#cookieCount}`;
		const arrived = new Promise<boolean>((resolve) => {
			const timer = setTimeout(() => resolve(false), COOKIE_TIMEOUT_MS);
			this.#cookieWaiters.set(name, () => {
				clearTimeout(timer);
				resolve(true);
			});
		});
		const path = join(this.#cookieFolder, name);
		writeFileSync(path, "");
		const seen = await arrived;
		this.#cookieWaiters.delete(name);
		rmSync(path, { force: true });
		if (!seen) this.#fail("a cookie's event did not arrive");
		const dirty = [...this.#dirty];
		const events = eventsInThread - this.#eventsBefore;
		this.#dirty = new Set();
		this.#eventsBefore = eventsInThread;
		if (this.#broken !== undefined || events >= this.#eventLimit) return undefined;
		return dirty;
	}

	/** The inode of the folder watched at `relative`, or undefined when it is not watched. */
	watchedInode(relative: string): number | undefined {
		return this.#watchers.get(relative)?.inode;
	}

	/**
	 * Watches a folder that appeared (and every folder under it but `.git` and nested repositories) and
	 * lists what is in it. Undefined when it holds more than `NEW_ENTRY_LIMIT` entries or a watch failed.
	 */
	async add(relative: string): Promise<AddedFolder | undefined> {
		const result: AddedFolder = { folders: [], files: [] };
		const pending = [relative];
		try {
			while (pending.length > 0) {
				const folder = pending.pop() as string;
				const found = await this.#watchFolder(folder, () => false);
				if (found === undefined) continue;
				result.folders.push(folder);
				result.files.push(...found.files);
				pending.push(...found.folders);
				if (result.folders.length + result.files.length > NEW_ENTRY_LIMIT) return undefined;
			}
		} catch (error) {
			this.#fail(String(error));
			return undefined;
		}
		return result;
	}

	/** Stops watching `relative` and every folder under it. */
	forget(relative: string): void {
		const prefix = relative === "" ? "" : `${relative}/`;
		for (const [folder, { watcher }] of this.#watchers) {
			if (folder === relative || folder.startsWith(prefix)) {
				watcher.close();
				this.#watchers.delete(folder);
			}
		}
	}

	close(): void {
		this.#cookieWatcher?.close();
		for (const { watcher } of this.#watchers.values()) watcher.close();
		this.#watchers.clear();
		this.#fail("closed");
	}

	#fail(reason: string): void {
		this.#broken ??= reason;
	}

	/**
	 * Watches one folder, then lists it (in that order, so nothing written in between goes unseen). Returns
	 * its subfolders to watch and its files, or undefined when it is gone or is a nested repository.
	 */
	async #watchFolder(
		relative: string,
		leaveOut: (relative: string) => boolean,
	): Promise<{ folders: string[]; files: string[] } | undefined> {
		const absolute = relative === "" ? this.#root : join(this.#root, relative);
		let watcher: FSWatcher;
		let inode: number;
		try {
			inode = (await stat(absolute)).ino;
			watcher = watch(absolute, { persistent: false }, (_type, name) => {
				eventsInThread++;
				if (typeof name !== "string") this.#fail("an event without a name");
				else this.#dirty.add(relative === "" ? name : `${relative}/${name}`);
			});
		} catch (error) {
			if (isGone(error)) return undefined;
			throw error;
		}
		watcher.on("error", (error) => this.#fail(`watch of ${relative}: ${String(error)}`));
		this.#watchers.get(relative)?.watcher.close();
		this.#watchers.set(relative, { watcher, inode });
		let entries: import("node:fs").Dirent[];
		try {
			entries = await readdir(absolute, { withFileTypes: true });
		} catch (error) {
			if (isGone(error)) return undefined;
			throw error;
		}
		if (relative !== "" && (await isNestedRepository(absolute, entries))) {
			this.forget(relative);
			return undefined;
		}
		const folders: string[] = [];
		const files: string[] = [];
		for (const entry of entries) {
			if (entry.name === ".git") continue;
			const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
			if (entry.isDirectory()) {
				if (!leaveOut(path)) folders.push(path);
			} else if (entry.isFile() || entry.isSymbolicLink()) files.push(path);
		}
		return { folders, files };
	}
}

/** A folder with its own repository (a `.git` folder with a HEAD, or a `.git` file): git records none of it. */
async function isNestedRepository(absolute: string, entries: readonly import("node:fs").Dirent[]): Promise<boolean> {
	const dotGit = entries.find((entry) => entry.name === ".git");
	if (dotGit === undefined) return false;
	if (!dotGit.isDirectory()) return true;
	return (await stat(join(absolute, ".git", "HEAD")).catch(() => undefined)) !== undefined;
}

async function readNumber(path: string, otherwise: number): Promise<number> {
	const value = Number.parseInt(await readFile(path, "utf8").catch(() => ""), 10);
	return Number.isFinite(value) && value > 0 ? value : otherwise;
}

function isGone(error: unknown): boolean {
	const code = (error as { code?: unknown }).code;
	return code === "ENOENT" || code === "ENOTDIR";
}
