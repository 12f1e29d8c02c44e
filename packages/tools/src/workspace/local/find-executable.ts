import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";

/**
 * The first file named `name` on `pathVariable` (a PATH value) that may be executed, or undefined.
 * On Windows each PATHEXT extension is tried as well.
 */
export async function findExecutable(name: string, pathVariable: string | undefined): Promise<string | undefined> {
	const folders = (pathVariable ?? "").split(delimiter).filter((folder) => folder !== "");
	const extensions =
		process.platform === "win32" ? ["", ...(process.env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";")] : [""];
	for (const folder of folders) {
		for (const extension of extensions) {
			const candidate = join(folder, name + extension);
			try {
				await access(candidate, constants.X_OK);
				return candidate;
			} catch {
				// Not here; try the next folder.
			}
		}
	}
	return undefined;
}
