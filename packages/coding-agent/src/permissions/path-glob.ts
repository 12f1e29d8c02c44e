import { readdir, readFile, readlink, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { errorText, withoutUndefined } from "@gantry/ai";
import type { ExtensionWorkspace } from "@gantry/extensions";
import { type PathLookup, resolveExistingPath } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";

/**
 * Compiles a path glob: `**` spans folders (`src/**` also covers `src` itself), `*` and `?` stay within
 * one name, `{a,b}` picks one of the choices. Paths are compared with `/` separators.
 */
export function compilePathGlob(pattern: string): RegExp {
	const cached = compiledGlobs.get(pattern);
	if (cached !== undefined) return cached;
	const compiled = new RegExp(`^${globSource(pattern)}$`);
	if (compiledGlobs.size >= MAX_CACHED_GLOBS) compiledGlobs.clear();
	compiledGlobs.set(pattern, compiled);
	return compiled;
}

/** Rules are few and matched for every call (and every file a folder search meets): compiled once each. */
const compiledGlobs = new Map<string, RegExp>();
const MAX_CACHED_GLOBS = 512;

function globSource(pattern: string): string {
	let source = "";
	let braces = 0;
	for (let index = 0; index < pattern.length; index++) {
		const character = pattern.charAt(index);
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
	return source;
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
	/** `stat` and `readdir` on the host, to find the file a builtin takes a look-alike name to. */
	lookup: PathLookup;
	/** A file's bytes on the host, when the host can read files (the git config check needs it). */
	readFile?: (absolute: string) => Promise<Uint8Array>;
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
		lookup: {
			stat: (absolutePath) =>
				stat(absolutePath).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error))),
			readdir: (absolutePath) => readdir(absolutePath, { withFileTypes: true }),
		},
		readFile: (absolutePath) => readFile(absolutePath),
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
		lookup: { stat: (absolute) => workspace.fs.stat(absolute), readdir: (absolute) => workspace.fs.readdir(absolute) },
		...withoutUndefined({ readFile: workspace.fs.readFile?.bind(workspace.fs) }),
		label: workspace.isLocal ? "this machine" : workspace.label,
	};
}

/** The path a tool call names, as written: `@` mention stripped, `~` home, relative to cwd. */
export function resolveCallPath(host: CallPathHost, typed: string): string {
	const cleaned = typed.trim();
	return host.resolvePath(cleaned.startsWith("@") ? cleaned.slice(1) : cleaned);
}

/**
 * The existing file a builtin takes the typed path to, looked up on the host the way the builtins do
 * (`resolveExistingPath`: the exact name, else the one look-alike name, no-break spaces or decomposed
 * accents, else without a leading `@`); undefined when there is none. A failed lookup throws.
 */
async function touchedPath(host: CallPathHost, typed: string): Promise<string | undefined> {
	try {
		return await resolveExistingPath(typed, (candidate) => host.resolvePath(candidate), host.lookup, host.syntax);
	} catch (error) {
		const why = errorText(error);
		throw cannotTell(host, resolveCallPath(host, typed), why, error);
	}
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
			if (!isMissing(error)) throw cannotTell(host, absolute, errorText(error), error);
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

/** Where a rule's glob is anchored, and the glob below that folder. */
interface RuleAnchor {
	root: string;
	pattern: string;
}

/**
 * The folders a path glob is taken relative to, as Claude Code reads `Read(…)` and `Edit(…)` patterns
 * (gitignore style): `//abs/…` from the root of the file system, `~/…` from the home folder, `/…` from
 * the project folder (`cwd`), `./…` or a relative glob from `cwd`. A glob with no `/` other than a
 * trailing one (`.env`, `*.pem`) matches at any depth there; a trailing `/` means the folder and all it
 * holds. With `broad` (deny and ask rules) a `/…` glob also holds from the root of the file system, as
 * Gantry read it before: a rule written either way loses nothing.
 */
function ruleAnchors(host: CallPathHost, glob: string, cwd: string, broad: boolean): RuleAnchor[] {
	const { join, parse } = host.syntax;
	let rule = glob.normalize("NFC");
	const folderOnly = rule.length > 1 && rule.endsWith("/");
	if (folderOnly) rule = rule.slice(0, -1);
	const below = (pattern: string) => (folderOnly ? `${pattern}/**` : pattern);
	const fileSystemRoot = parse(cwd).root || "/";
	if (rule.startsWith("//")) return [{ root: fileSystemRoot, pattern: below(rule.slice(2)) }];
	if (rule === "~") return [{ root: host.home, pattern: below("") || "**" }];
	if (rule.startsWith("~/")) return [{ root: host.home, pattern: below(rule.slice(2)) }];
	if (rule.startsWith("/")) {
		const project = { root: cwd, pattern: below(rule.slice(1)) };
		return broad ? [project, { root: fileSystemRoot, pattern: project.pattern }] : [project];
	}
	if (host.syntax.isAbsolute(rule)) return [{ root: join(rule, ".."), pattern: below(host.syntax.basename(rule)) }];
	const relative = rule.startsWith("./") ? rule.slice(2) : rule;
	const anyDepth = !rule.startsWith("./") && !relative.includes("/");
	return [{ root: cwd, pattern: below(anyDepth ? `**/${relative}` : relative) }];
}

/**
 * A path rule's glob as absolute globs on this machine, the way `globCovers` anchors it (see `ruleAnchors`):
 * for lists kept outside the policy, such as the OS sandbox's denyRead and denyWrite. `broad` as for deny
 * rules (a `/…` glob also from the root).
 */
export function absoluteRuleGlobs(glob: string, place: { cwd: string; home: string }, broad: boolean): string[] {
	const host = { ...localCallPathHost(place.cwd), home: place.home };
	return ruleAnchors(host, glob, path.resolve(place.cwd), broad).map((anchor) =>
		anchor.pattern === "" ? anchor.root : path.join(anchor.root, anchor.pattern),
	);
}

/** Rules and paths are compared with composed accents: a rule typed in either form names the same file. */
function globMatches(host: CallPathHost, glob: string, cwd: string, absolute: string, broad: boolean): boolean {
	const { isAbsolute, relative } = host.syntax;
	const target = absolute.normalize("NFC");
	return ruleAnchors(host, glob, cwd.normalize("NFC"), broad).some((anchor) => {
		const inside = relative(anchor.root.normalize("NFC"), target);
		if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
			return inside === "" && compilePathGlob(anchor.pattern).test(".");
		}
		return compilePathGlob(anchor.pattern).test(toSlashes(host, inside));
	});
}

/** One place a call's path names: its absolute path and the cwd it is taken relative to. */
interface CallPlace {
	cwd: string;
	path: string;
}

/**
 * The places a call's path names on its host: as typed (resolved) and, when a builtin would take it to an
 * existing look-alike file, that file; each both as written and with links followed.
 */
export interface CallLocations {
	host: CallPathHost;
	places: { written: CallPlace; real: CallPlace }[];
}

/** Resolves the path of a call on `host`: as typed and as a builtin finds it, lexically and with links followed. */
export async function locateCallPath(host: CallPathHost, typed: string): Promise<CallLocations> {
	const written = resolveCallPath(host, typed);
	const touched = await touchedPath(host, typed);
	const paths = touched === undefined || touched === written ? [written] : [written, touched];
	const [realCwd, resolved] = await Promise.all([
		realLocation(host, host.cwd),
		Promise.all(paths.map(async (path) => ({ path, real: await realLocation(host, path) }))),
	]);
	return {
		host,
		places: resolved.map(({ path, real }) => ({
			written: { cwd: host.cwd, path },
			real: { cwd: realCwd, path: real },
		})),
	};
}

/**
 * Whether a glob covers the call's path: with `both` (allow rules), every place it names, as written and
 * where its links lead; without (deny rules), any of them.
 */
export function globCovers(glob: string, locations: CallLocations, both: boolean): boolean {
	const { host } = locations;
	const covers = (place: CallPlace) => globMatches(host, glob, place.cwd, place.path, !both);
	const views = locations.places.flatMap((place) => [place.written, place.real]);
	return both ? views.every(covers) : views.some(covers);
}
