import { FOLDER_MODE, type LooseObjectWriter, type TreeEntry, treeBody } from "./git-objects.js";

/**
 * The last checkpoint's tree held in memory, folder by folder, so that a checkpoint of a few changed files
 * rewrites only the trees on their way to the root. Paths are relative with `/`; "" is the root.
 */
export class TreeModel {
	/** Each folder's entries by name; a subfolder's entry has mode `40000` and its tree id ("" once stale). */
	readonly #folders = new Map<string, Map<string, TreeEntry>>([["", new Map()]]);
	/** Folders whose tree must be written again. */
	readonly #stale = new Set<string>();
	#attributeFiles = 0;
	#tree: string;

	private constructor(tree: string) {
		this.#tree = tree;
	}

	/** From `git ls-tree -r -t -z --full-tree <tree>` output; undefined when it holds a name this model cannot keep. */
	static parse(tree: string, listing: Buffer): TreeModel | undefined {
		const model = new TreeModel(tree);
		const text = listing.toString("utf8");
		if (text.includes("\uFFFD") || !/^[0-9a-f]{40}$/.test(tree)) return undefined;
		for (const record of text.split("\0")) {
			if (record === "") continue;
			const tab = record.indexOf("\t");
			const [mode, , oid] = record.slice(0, tab).split(" ");
			// Not `<mode> <type> <oid>\t<path>`: a listing this model cannot read is git's to handle.
			if (tab === -1 || mode === undefined || oid === undefined) return undefined;
			const path = record.slice(tab + 1);
			const normalMode = mode === "040000" ? FOLDER_MODE : mode;
			if (normalMode === FOLDER_MODE) model.#folders.set(path, new Map());
			model.#entriesOf(parentOf(path)).set(nameOf(path), { mode: normalMode, oid });
			if (nameOf(path) === ".gitattributes") model.#attributeFiles++;
		}
		return model;
	}

	/** The root tree id as of the last `write`. */
	get tree(): string {
		return this.#tree;
	}

	/** Whether any folder holds a `.gitattributes` (filters and line-ending rules are git's to apply). */
	get hasAttributes(): boolean {
		return this.#attributeFiles > 0;
	}

	entry(path: string): TreeEntry | undefined {
		return this.#folders.get(parentOf(path))?.get(nameOf(path));
	}

	/** Records a file (or link, or nested repository) at `path`, creating its folders. */
	set(path: string, entry: TreeEntry): void {
		const existing = this.entry(path);
		if (existing?.mode === FOLDER_MODE) this.delete(path);
		let folder = "";
		for (const part of parentOf(path) === "" ? [] : parentOf(path).split("/")) {
			const child = folder === "" ? part : `${folder}/${part}`;
			const entries = this.#entriesOf(folder);
			const current = entries.get(part);
			if (current !== undefined && current.mode !== FOLDER_MODE) this.delete(child);
			if (!this.#folders.has(child)) {
				this.#folders.set(child, new Map());
				entries.set(part, { mode: FOLDER_MODE, oid: "" });
			}
			folder = child;
		}
		if (existing === undefined && nameOf(path) === ".gitattributes") this.#attributeFiles++;
		this.#entriesOf(parentOf(path)).set(nameOf(path), entry);
		this.#touch(parentOf(path));
	}

	/** Forgets `path`: a file, or a folder with everything in it. */
	delete(path: string): void {
		const parent = this.#folders.get(parentOf(path));
		const existing = parent?.get(nameOf(path));
		if (parent === undefined || existing === undefined) return;
		parent.delete(nameOf(path));
		if (existing.mode === FOLDER_MODE) {
			const prefix = `${path}/`;
			for (const [folder, entries] of this.#folders) {
				if (folder !== path && !folder.startsWith(prefix)) continue;
				for (const name of entries.keys()) if (name === ".gitattributes") this.#attributeFiles--;
				this.#folders.delete(folder);
				this.#stale.delete(folder);
			}
		} else if (nameOf(path) === ".gitattributes") this.#attributeFiles--;
		this.#touch(parentOf(path));
	}

	/** Whether `path` is a folder holding recorded files. */
	isFolder(path: string): boolean {
		return this.#folders.has(path);
	}

	/** Writes the trees of the folders that changed, deepest first (dropping emptied ones), and returns the root's. */
	write(objects: LooseObjectWriter): string {
		const stale = [...this.#stale].sort((a, b) => depthOf(b) - depthOf(a));
		for (const folder of stale) {
			const entries = this.#folders.get(folder);
			if (entries === undefined) continue;
			if (entries.size === 0 && folder !== "") {
				// Git records no empty folder: it goes from its parent, which is stale already.
				this.#folders.delete(folder);
				this.#folders.get(parentOf(folder))?.delete(nameOf(folder));
				continue;
			}
			const oid = objects.write("tree", treeBody(entries));
			if (folder === "") this.#tree = oid;
			else {
				const parentEntry = this.#folders.get(parentOf(folder))?.get(nameOf(folder));
				if (parentEntry !== undefined) parentEntry.oid = oid;
			}
		}
		this.#stale.clear();
		return this.#tree;
	}

	#entriesOf(folder: string): Map<string, TreeEntry> {
		let entries = this.#folders.get(folder);
		if (entries === undefined) {
			entries = new Map();
			this.#folders.set(folder, entries);
		}
		return entries;
	}

	/** Marks `folder` and every folder above it stale, their ids unknown until `write`. */
	#touch(folder: string): void {
		let current: string | undefined = folder;
		while (current !== undefined) {
			this.#stale.add(current);
			if (current === "") break;
			const entry = this.#folders.get(parentOf(current))?.get(nameOf(current));
			if (entry !== undefined) entry.oid = "";
			current = parentOf(current);
		}
	}
}

export function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}

export function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

function depthOf(path: string): number {
	return path === "" ? 0 : path.split("/").length;
}
