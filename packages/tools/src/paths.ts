import { localHome, resolveLocalPath } from "./workspace/local/paths.js";
import type { Workspace } from "./workspace/types.js";

/** A path as a model typed it, trimmed and without a leading `@` (a mention). */
export function cleanToolPath(path: string): string {
	const cleaned = path.trim();
	return cleaned.startsWith("@") ? cleaned.slice(1) : cleaned;
}

/** Resolves a path a model gave on `workspace`: a leading `@` is stripped, then `workspace.resolvePath`. */
export function resolveWorkspacePath(workspace: Workspace, path: string): string {
	return workspace.resolvePath(cleanToolPath(path));
}

/**
 * Resolves a path a model gave on this machine: a leading `@` (a mention) is stripped, `~` is the home
 * folder, and a relative path is relative to `cwd`.
 */
export function resolveToolPath(cwd: string, path: string): string {
	return resolveLocalPath(cwd, localHome(), cleanToolPath(path));
}
