import path from "node:path";
import { resolveWorkspacePath } from "./paths.js";
import type { Workspace } from "./workspace/types.js";

/** The path syntax of the host: `node:path` for this machine, POSIX for a remote one. */
type PathSyntax = Pick<typeof path.posix, "basename" | "dirname" | "join">;

/** The file-system questions look-alike resolution asks; a `Workspace`'s `fs` answers them over any transport. */
export interface PathLookup {
	/** What is at `path` (links followed), or undefined when nothing is. */
	stat(path: string): Promise<unknown | undefined>;
	/** The entries of a folder (only `name` is used). May reject; resolution then gives up on that folder. */
	readdir(path: string): Promise<readonly { name: string }[]>;
}

/** Spaces that look like a plain space: no-break, narrow no-break (macOS screenshots before AM/PM), figure, thin. */
const SPACE_LOOK_ALIKES = /[\u00A0\u202F\u2007\u2009]/g;
/** Apostrophes that look like a straight one: left and right single quotes, the modifier letter. */
const APOSTROPHE_LOOK_ALIKES = /[\u2018\u2019\u02BC]/g;
/** A name of printable ASCII without space or apostrophe has no look-alike this resolver knows. */
const NO_LOOK_ALIKE = /^[\x21-\x26\x28-\x7e]*$/;

/** The form two look-alike names share: composed accents, plain spaces, straight apostrophes. */
function lookAlikeKey(name: string): string {
	return name.normalize("NFC").replace(SPACE_LOOK_ALIKES, " ").replace(APOSTROPHE_LOOK_ALIKES, "'");
}

/**
 * The existing path that `path` (absolute) names up to look-alike characters in any of its parts: a
 * plain space for a no-break or narrow no-break space, composed for decomposed accents (or the reverse),
 * a straight for a curly apostrophe. Each part is taken exactly when it exists; otherwise the one entry
 * of its folder with the same look-alike form. Undefined when there is none, or more than one.
 */
export async function findLookAlikePath(
	absolute: string,
	lookup: PathLookup,
	syntax: PathSyntax = path,
): Promise<string | undefined> {
	const { basename, dirname, join } = syntax;
	if (NO_LOOK_ALIKE.test(absolute.replaceAll("/", ""))) return undefined;
	const missing: string[] = [];
	let current = absolute;
	while ((await lookup.stat(current)) === undefined) {
		const parent = dirname(current);
		if (parent === current) return undefined;
		missing.unshift(basename(current));
		current = parent;
	}
	for (const [index, part] of missing.entries()) {
		const exact = join(current, part);
		// The first missing part is known to be missing; later ones may exist under a look-alike folder.
		if (index > 0 && (await lookup.stat(exact)) !== undefined) {
			current = exact;
			continue;
		}
		if (NO_LOOK_ALIKE.test(part)) return undefined;
		const key = lookAlikeKey(part);
		let names: readonly { name: string }[];
		try {
			names = await lookup.readdir(current);
		} catch {
			return undefined;
		}
		const [match, ...others] = names.filter((entry) => lookAlikeKey(entry.name) === key);
		if (match === undefined || others.length > 0) return undefined;
		current = join(current, match.name);
	}
	return current;
}

/**
 * Finds the existing file or folder a model meant by `typed`: the exact name first, then look-alike names
 * (`findLookAlikePath`), and only when neither exists, the same without a leading `@` (a mention).
 * `resolve` turns typed text into an absolute path (`~`, relative to the working folder) without touching
 * `@`. Undefined when nothing matches.
 */
export async function resolveExistingPath(
	typed: string,
	resolve: (typed: string) => string,
	lookup: PathLookup,
	syntax: PathSyntax = path,
): Promise<string | undefined> {
	const trimmed = typed.trim();
	const candidates = [trimmed];
	if (trimmed.startsWith("@") && trimmed.length > 1) candidates.push(trimmed.slice(1));
	for (const candidate of candidates) {
		const absolute = resolve(candidate);
		if ((await lookup.stat(absolute)) !== undefined) return absolute;
		const lookAlike = await findLookAlikePath(absolute, lookup, syntax);
		if (lookAlike !== undefined) return lookAlike;
	}
	return undefined;
}

/**
 * How a tool turns the path a model typed into the path it acts on. On the workspace's own file system
 * (`customOperations` false): the existing file `resolveExistingPath` finds, else the typed path without a
 * leading `@` (what `write` creates, and what a "not found" error names). With custom operations the
 * workspace cannot see their files, so the path is only resolved (`@` stripped), never looked up.
 */
export function toolPathResolver(workspace: Workspace, customOperations: boolean): (typed: string) => Promise<string> {
	if (customOperations) return async (typed) => resolveWorkspacePath(workspace, typed);
	const syntax = workspace.isLocal ? path : path.posix;
	return async (typed) =>
		(await resolveExistingPath(typed, (candidate) => workspace.resolvePath(candidate), workspace.fs, syntax)) ??
		resolveWorkspacePath(workspace, typed);
}
