import { readlink, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import type { ExtensionWorkspace } from "@gantry/extensions";
import { CodingAgentError } from "../errors.js";

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

/**
 * The host a call's path names a place on: this machine, or the session's workspace (its home, its
 * links, its path syntax), so that a rule judges the file the tool will really touch.
 */
export interface CallPathHost {
	/** The folder relative rules and relative paths start from. */
	cwd: string;
	/** What `~` means in a rule. */
	home: string;
	/** The host's path syntax. */
	syntax: path.PlatformPath;
	/** A typed path made absolute on the host (`~` is `home`, relative to `cwd`). */
	resolvePath(typed: string): string;
	/** The path with its links followed on the host; rejects with code ENOENT or ENOTDIR when it is missing. */
	realpath(absolute: string): Promise<string>;
	/** The target a link holds; rejects for a path that is not a link. */
	readlink(absolute: string): Promise<string>;
	/** Names the host in errors. */
	label: string;
}

/** This machine, working in `cwd`. */
export function localCallPathHost(cwd: string): CallPathHost {
	const home = homedir();
	const absolute = path.resolve(cwd);
	return {
		cwd: absolute,
		home,
		syntax: path,
		resolvePath: (typed) => {
			if (typed === "~") return home;
			if (typed.startsWith("~/")) return path.resolve(home, typed.slice(2));
			return path.isAbsolute(typed) ? path.resolve(typed) : path.resolve(absolute, typed);
		},
		realpath: (absolutePath) => realpath(absolutePath),
		readlink: (absolutePath) => readlink(absolutePath),
		label: "this machine",
	};
}

/** The session's workspace: its `cwd`, `home`, `resolvePath` and `fs.realpath`; POSIX syntax unless local. */
export function workspaceCallPathHost(workspace: ExtensionWorkspace): CallPathHost {
	return {
		cwd: workspace.cwd,
		home: workspace.home,
		syntax: workspace.isLocal ? path : path.posix,
		resolvePath: (typed) => workspace.resolvePath(typed),
		realpath: (absolute) => workspace.fs.realpath(absolute),
		readlink: (absolute) => workspace.fs.readlink(absolute),
		label: workspace.isLocal ? "this machine" : workspace.label,
	};
}

/** The path a tool call names, as the builtins resolve it: `@` mention stripped, `~` home, relative to cwd. */
export function resolveCallPath(host: CallPathHost, typed: string): string {
	const cleaned = typed.trim();
	return host.resolvePath(cleaned.startsWith("@") ? cleaned.slice(1) : cleaned);
}

function isMissing(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "ENOENT" || code === "ENOTDIR";
}

/** Symbolic links followed in a row before the path counts as a loop (Linux's limit). */
const MAX_LINK_HOPS = 40;

function cannotTell(host: CallPathHost, absolute: string, why: string, cause?: unknown): CodingAgentError {
	return new CodingAgentError(
		"invalid_option",
		`Cannot tell where ${absolute} leads on ${host.label} (${why}), so the permission rules on paths cannot be checked. Check that the path can be read there, or try again.`,
		{ cause },
	);
}

/**
 * Where `absolute` really is on the host: links followed in the part that exists, the rest appended (a
 * file a `write` will create). A dangling link is followed to where it points, since writing through it
 * creates its target. Any failure other than "missing" throws: the rules cannot be checked then.
 */
async function realLocation(host: CallPathHost, absolute: string): Promise<string> {
	const { basename, dirname, join, resolve } = host.syntax;
	const missing: string[] = [];
	let current = absolute;
	let hops = 0;
	for (;;) {
		try {
			return join(await host.realpath(current), ...missing.reverse());
		} catch (error) {
			const parent = dirname(current);
			if (parent === current) return join(current, ...missing.reverse());
			if (!isMissing(error))
				throw cannotTell(host, absolute, error instanceof Error ? error.message : String(error), error);
			const target = await host.readlink(current).catch(() => undefined);
			if (target !== undefined) {
				if (++hops > MAX_LINK_HOPS) throw cannotTell(host, absolute, "too many levels of symbolic links");
				current = resolve(parent, target);
				continue;
			}
			missing.push(basename(current));
			current = parent;
		}
	}
}

function toSlashes(host: CallPathHost, absolute: string): string {
	const { sep } = host.syntax;
	return sep === "/" ? absolute : absolute.split(sep).join("/");
}

function globMatches(host: CallPathHost, glob: string, cwd: string, absolute: string): boolean {
	const { isAbsolute, join, relative } = host.syntax;
	const expanded = glob.startsWith("~/") ? join(host.home, glob.slice(2)) : glob;
	if (isAbsolute(expanded)) return compilePathGlob(toSlashes(host, expanded)).test(toSlashes(host, absolute));
	const inside = relative(cwd, absolute);
	if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
		return inside === "" && compilePathGlob(expanded.replace(/^\.\//, "")).test(".");
	}
	return compilePathGlob(expanded.replace(/^\.\//, "")).test(toSlashes(host, inside));
}

/** The two places a call's path names on its host: as written (resolved) and with links followed. */
export interface CallLocations {
	host: CallPathHost;
	written: { cwd: string; path: string };
	real: { cwd: string; path: string };
}

/** Resolves the path of a call on `host` both lexically and with symbolic links followed (for cwd too). */
export async function locateCallPath(host: CallPathHost, typed: string): Promise<CallLocations> {
	const written = resolveCallPath(host, typed);
	const [realCwd, realPath] = await Promise.all([realLocation(host, host.cwd), realLocation(host, written)]);
	return { host, written: { cwd: host.cwd, path: written }, real: { cwd: realCwd, path: realPath } };
}

/** Whether a glob covers the path as written and, with `both`, also where its links lead. */
export function globCovers(glob: string, locations: CallLocations, both: boolean): boolean {
	const { host } = locations;
	const written = globMatches(host, glob, locations.written.cwd, locations.written.path);
	const real = globMatches(host, glob, locations.real.cwd, locations.real.path);
	return both ? written && real : written || real;
}
