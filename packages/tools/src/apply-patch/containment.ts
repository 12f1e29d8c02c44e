import path from "node:path";
import type { Workspace } from "../workspace/types.js";

type PathSyntax = Pick<typeof path.posix, "dirname" | "isAbsolute" | "relative" | "resolve" | "sep">;

function isWithin(syntax: PathSyntax, root: string, target: string): boolean {
	const relative = syntax.relative(root, target);
	return (
		relative === "" || (!relative.startsWith(`..${syntax.sep}`) && relative !== ".." && !syntax.isAbsolute(relative))
	);
}

/** Links followed before a path is given up on as a loop (as the kernel's ELOOP limit). */
const MAX_LINK_HOPS = 40;

/**
 * The real location of `target`: its own real path, or, for a file that does not exist yet, its nearest
 * existing folder's. A dangling link is followed to where it points, since writing through it creates
 * its target there.
 */
async function realLocation(workspace: Workspace, syntax: PathSyntax, target: string): Promise<string> {
	let current = target;
	for (let hops = 0; ; ) {
		try {
			return await workspace.fs.realpath(current);
		} catch {
			// Missing (or dangling): look at the link itself, else at the folder it would be in.
		}
		const link = await workspace.fs.lstat(current).catch(() => undefined);
		if (link?.kind === "symlink" && hops++ < MAX_LINK_HOPS) {
			current = syntax.resolve(syntax.dirname(current), await workspace.fs.readlink(current));
			continue;
		}
		const parent = syntax.dirname(current);
		if (parent === current) return current;
		current = parent;
	}
}

/**
 * Checks that every path is inside the working folder, as spelled and where links lead: a patch from a
 * model (or a cloned repository that plants a link such as `docs -> /etc`) cannot reach past it.
 *
 * @throws Error naming the first path outside and why, before anything is read or written.
 */
export async function assertInsideWorkingFolder(
	workspace: Workspace,
	paths: readonly { absolute: string; display: string }[],
): Promise<void> {
	const syntax: PathSyntax = workspace.isLocal ? path : path.posix;
	const root = workspace.cwd;
	const realRoot = await workspace.fs.realpath(root).catch(() => root);
	for (const { absolute, display } of paths) {
		if (!isWithin(syntax, root, absolute)) {
			throw new Error(
				`${display} is outside the working folder (${root}); apply_patch only changes files inside it. Use a path relative to the working folder.`,
			);
		}
		const real = await realLocation(workspace, syntax, absolute);
		if (!isWithin(syntax, realRoot, real)) {
			throw new Error(
				`${display} leads outside the working folder through a link (to ${real}); apply_patch only changes files inside ${root}.`,
			);
		}
	}
}
