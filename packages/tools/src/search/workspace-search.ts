import type { BuiltinEngineOperations } from "../grep/builtin-engine.js";
import { localFileSystem, localPathExists, readLocalTextOrUndefined } from "../workspace/local/file-system.js";
import type { WorkspaceFileSystem } from "../workspace/types.js";
import { markLocalOpener } from "./local-openers.js";
import type { SearchFileReader } from "./types.js";

const decoder = new TextDecoder();

/** The text of a file, or undefined when it is missing or unreadable (looked up with `stat` first: cheap locally). */
export async function readTextOrUndefined(fs: WorkspaceFileSystem, path: string): Promise<string | undefined> {
	try {
		if ((await fs.stat(path))?.kind !== "file") return undefined;
		return decoder.decode(await fs.readFile(path));
	} catch {
		return undefined;
	}
}

/** Whether anything exists at `path` (a broken link counts as nothing). Never rejects. */
export async function existsOn(fs: WorkspaceFileSystem, path: string): Promise<boolean> {
	try {
		return (await fs.stat(path)) !== undefined;
	} catch {
		return false;
	}
}

/** Opens a file for reading from start to end through the workspace's positional reads. */
export async function openSequential(fs: WorkspaceFileSystem, path: string): Promise<SearchFileReader> {
	const handle = await fs.open(path);
	let position = 0;
	return {
		async read(buffer, offset, length) {
			const count = await handle.read(buffer, offset, length, position);
			position += count;
			return count;
		},
		close: () => handle.close(),
	};
}

/** The walk's and grep's built-in engine's I/O on a workspace's file system. */
export function searchOperationsOn(fs: WorkspaceFileSystem): BuiltinEngineOperations {
	const local = fs === localFileSystem;
	const open = (path: string) => openSequential(fs, path);
	if (local) markLocalOpener(open);
	return {
		readdir: (path) => fs.readdir(path),
		readText: local ? async (path) => readLocalTextOrUndefined(path) : (path) => readTextOrUndefined(fs, path),
		exists: local ? async (path) => localPathExists(path) : (path) => existsOn(fs, path),
		open,
	};
}
