import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * Compiles a path glob: `**` spans folders (`src/**` also covers `src` itself), `*` and `?` stay within
 * one name, `{a,b}` picks one of the choices. Paths are compared with `/` separators.
 */
export function compilePathGlob(pattern: string): RegExp {
	let source = "";
	let braces = 0;
	for (let index = 0; index < pattern.length; index++) {
		const character = pattern[index];
		if (character === "*" && pattern[index + 1] === "*") {
			const slashAfter = pattern[index + 2] === "/";
			const atEnd = index + 2 === pattern.length;
			if (atEnd && source.endsWith("/")) source = `${source.slice(0, -1)}(?:/.*)?`;
			else source += slashAfter ? "(?:.*/)?" : ".*";
			index += slashAfter ? 2 : 1;
		} else if (character === "*") source += "[^/]*";
		else if (character === "?") source += "[^/]";
		else if (character === "{") {
			braces++;
			source += "(?:";
		} else if (character === "}" && braces > 0) {
			braces--;
			source += ")";
		} else if (character === "," && braces > 0) source += "|";
		else source += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
	}
	return new RegExp(`^${source}$`);
}

/** The path a tool call names, as the builtins resolve it: `@` mention stripped, `~` home, relative to cwd. */
export function resolveCallPath(cwd: string, path: string): string {
	let cleaned = path.trim();
	if (cleaned.startsWith("@")) cleaned = cleaned.slice(1);
	if (cleaned === "~") return homedir();
	if (cleaned.startsWith("~/")) return resolve(homedir(), cleaned.slice(2));
	return isAbsolute(cleaned) ? resolve(cleaned) : resolve(cwd, cleaned);
}

/** Where `path` really is: links followed in the part that exists, the rest appended. */
async function realLocation(path: string): Promise<string> {
	const missing: string[] = [];
	let current = path;
	for (;;) {
		try {
			return join(await realpath(current), ...missing.reverse());
		} catch {
			const parent = dirname(current);
			if (parent === current) return path;
			missing.push(basename(current));
			current = parent;
		}
	}
}

function toSlashes(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

function globMatches(glob: string, cwd: string, absolute: string): boolean {
	const expanded = glob.startsWith("~/") ? join(homedir(), glob.slice(2)) : glob;
	if (isAbsolute(expanded)) return compilePathGlob(toSlashes(expanded)).test(toSlashes(absolute));
	const inside = relative(cwd, absolute);
	if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
		return inside === "" && compilePathGlob(expanded.replace(/^\.\//, "")).test(".");
	}
	return compilePathGlob(expanded.replace(/^\.\//, "")).test(toSlashes(inside));
}

/** The two places a call's path names: as written (resolved) and with links followed. */
export interface CallLocations {
	written: { cwd: string; path: string };
	real: { cwd: string; path: string };
}

/** Resolves the path of a call both lexically and with symbolic links followed (for cwd too). */
export async function locateCallPath(cwd: string, path: string): Promise<CallLocations> {
	const written = resolveCallPath(cwd, path);
	const [realCwd, realPath] = await Promise.all([realLocation(resolve(cwd)), realLocation(written)]);
	return { written: { cwd: resolve(cwd), path: written }, real: { cwd: realCwd, path: realPath } };
}

/** Whether a glob covers the path as written and, with `both`, also where its links lead. */
export function globCovers(glob: string, locations: CallLocations, both: boolean): boolean {
	const written = globMatches(glob, locations.written.cwd, locations.written.path);
	const real = globMatches(glob, locations.real.cwd, locations.real.path);
	return both ? written && real : written || real;
}
