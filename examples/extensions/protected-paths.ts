/**
 * Protected paths: blocks `write` and `edit` calls that target `.env*` files, anything inside a `.git`
 * folder, or a path outside the working directory. Reads stay allowed. (Symlinks are not followed: a
 * link inside the project that points outside it is not caught.)
 *
 *     gantry -e examples/extensions/protected-paths.ts
 */
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import type { ExtensionAPI } from "@gantry/extensions";

const WRITING_TOOLS = new Set(["write", "edit"]);

/** Why `path` must not be written from `cwd`, or undefined when it may. */
function protection(path: string, cwd: string): string | undefined {
	if (path.startsWith("~")) return "it is outside the working directory";
	const absolute = resolve(cwd, path);
	const inside = relative(cwd, absolute);
	if (inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
		return "it is outside the working directory";
	}
	if (inside.split(sep).includes(".git")) return "it is inside a .git folder";
	if (basename(absolute).startsWith(".env")) return ".env files hold secrets";
	return undefined;
}

export default function protectedPaths(api: ExtensionAPI): void {
	api.on("tool_call", (event, ctx) => {
		if (!WRITING_TOOLS.has(event.toolName)) return;
		const path = event.input.path;
		if (typeof path !== "string") return;
		const problem = protection(path, ctx.cwd);
		if (problem !== undefined) return { block: true, reason: `Refusing to ${event.toolName} ${path}: ${problem}.` };
	});
}
