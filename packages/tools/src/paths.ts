import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

/**
 * Resolves a path a model gave: a leading `@` (a mention) is stripped, `~` is the home folder, and a
 * relative path is relative to `cwd`.
 */
export function resolveToolPath(cwd: string, path: string): string {
	let cleaned = path.trim();
	if (cleaned.startsWith("@")) cleaned = cleaned.slice(1);
	if (cleaned === "~") return homedir();
	if (cleaned.startsWith("~/")) return resolve(homedir(), cleaned.slice(2));
	return isAbsolute(cleaned) ? resolve(cleaned) : resolve(cwd, cleaned);
}
