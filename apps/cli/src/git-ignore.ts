import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** What `ignoreInFolder` did: made the `.gitignore`, added the line to it, or found it listed already. */
export type GitIgnoreChange = "created" | "added" | "listed";

/** Whether a `.gitignore` line names `name` in its own folder (`name` or `/name`, spaces around ignored). */
function lists(text: string, name: string): boolean {
	return text.split(/\r?\n/).some((line) => {
		const pattern = line.trim();
		return pattern === name || pattern === `/${name}`;
	});
}

/**
 * Makes git ignore the file `name` of `folder` through `folder/.gitignore` (the repository's root
 * `.gitignore` is not touched): creates it with that one line when it is missing, appends the line when
 * it does not list it yet (nothing else in it changes), and leaves it alone otherwise. Rejects with the
 * file system's error when the file cannot be read or written.
 */
export async function ignoreInFolder(folder: string, name: string): Promise<GitIgnoreChange> {
	const path = join(folder, ".gitignore");
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		try {
			await writeFile(path, `${name}\n`, { flag: "wx" });
			return "created";
		} catch (raced) {
			// Someone made it meanwhile: read theirs and add to it.
			if ((raced as NodeJS.ErrnoException).code !== "EEXIST") throw raced;
			text = await readFile(path, "utf8");
		}
	}
	if (lists(text, name)) return "listed";
	await appendFile(path, `${text === "" || text.endsWith("\n") ? "" : "\n"}${name}\n`);
	return "added";
}
