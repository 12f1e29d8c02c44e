import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

/** A tree entry: `100644`/`100755` file, `120000` link, `160000` nested repository, `40000` folder. */
export interface TreeEntry {
	mode: string;
	/** Hex object id; "" for a folder whose tree is not written yet. */
	oid: string;
}

export const FOLDER_MODE = "40000";

/**
 * Writes objects straight into a local repository's `objects` folder as git stores loose ones (the
 * header `<type> <size>\0`, the SHA-1 of it and the body, zlib). A checkpoint of a few changed files
 * then costs no git process at all. Only for SHA-1 repositories (the shadow repository is created so).
 */
export class LooseObjectWriter {
	readonly #objects: string;
	readonly #folders = new Set<string>();

	constructor(gitDir: string) {
		this.#objects = join(gitDir, "objects");
	}

	write(type: "blob" | "tree" | "commit", body: Buffer): string {
		const header = Buffer.from(`${type} ${body.length}\0`);
		const oid = createHash("sha1").update(header).update(body).digest("hex");
		const folder = join(this.#objects, oid.slice(0, 2));
		const path = join(folder, oid.slice(2));
		if (existsSync(path)) return oid;
		if (!this.#folders.has(folder)) {
			mkdirSync(folder, { recursive: true });
			this.#folders.add(folder);
		}
		// A temporary name then a rename, as git does: a reader never sees half an object.
		const temporary = join(folder, `tmp_obj_gantry_${randomBytes(6).toString("hex")}`);
		try {
			writeFileSync(temporary, deflateSync(Buffer.concat([header, body]), { level: 1 }), { mode: 0o444 });
			renameSync(temporary, path);
		} catch (error) {
			rmSync(temporary, { force: true });
			throw error;
		}
		return oid;
	}
}

/** A tree object's body: entries in git's order (a folder sorts as if its name ended with `/`). */
export function treeBody(entries: ReadonlyMap<string, TreeEntry>): Buffer {
	const sorted = [...entries].map(([name, entry]) => ({
		name,
		entry,
		key: Buffer.from(entry.mode === FOLDER_MODE ? `${name}/` : name),
	}));
	sorted.sort((a, b) => Buffer.compare(a.key, b.key));
	const parts: Buffer[] = [];
	for (const { name, entry } of sorted) {
		if (entry.oid === "") throw new Error(`checkpoint tree: ${name} has no object yet`);
		parts.push(Buffer.from(`${entry.mode} ${name}\0`), Buffer.from(entry.oid, "hex"));
	}
	return Buffer.concat(parts);
}

/** A commit object's body as `git commit-tree` writes it, with the checkpoints' fixed author. */
export function commitBody(tree: string, parent: string | undefined, message: string, seconds: number): Buffer {
	const who = `Gantry checkpoints <checkpoints@gantry.invalid> ${seconds} +0000`;
	const lines = [`tree ${tree}`, ...(parent === undefined ? [] : [`parent ${parent}`])];
	lines.push(`author ${who}`, `committer ${who}`, "", message.endsWith("\n") ? message.slice(0, -1) : message);
	return Buffer.from(`${lines.join("\n")}\n`);
}
