import { statSync } from "node:fs";
import { resolve } from "node:path";
import { usageError } from "./errors.js";

/** The folder to work in: `--cwd` (which must exist) or the current one. */
export function resolveWorkingFolder(cwd: string | undefined): string {
	if (cwd === undefined) return process.cwd();
	const folder = resolve(cwd);
	if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`--cwd ${cwd}: no such folder`);
	return folder;
}
