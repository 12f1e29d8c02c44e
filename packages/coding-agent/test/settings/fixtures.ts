import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp home folder and a project folder inside one temp folder, removed afterwards. */
export async function withFolders<T>(run: (folders: { root: string; home: string; project: string }) => Promise<T>) {
	const root = await mkdtemp(join(tmpdir(), "gantry-settings-test-"));
	const home = join(root, "home");
	const project = join(root, "project");
	await mkdir(home, { recursive: true });
	await mkdir(project, { recursive: true });
	try {
		return await run({ root, home, project });
	} finally {
		await rm(root, { recursive: true, force: true });
	}
}

/** Writes `.gantry/<name>` in `folder` (a string as it is, anything else as JSON). */
export async function writeSettings(folder: string, settings: unknown, name = "settings.json"): Promise<string> {
	const path = join(folder, ".gantry", name);
	await mkdir(join(folder, ".gantry"), { recursive: true });
	await writeFile(path, typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
	return path;
}
