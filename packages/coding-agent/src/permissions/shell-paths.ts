import { errorText } from "@gantry/ai";
import { isCommandWrapper } from "./command-runners.js";
import { type FileOperand, fileOperandsOf } from "./file-programs.js";
import { type CallLocations, type CallPathHost, compilePathGlob, globCovers, locateCallPath } from "./path-glob.js";
import type { PermissionRule } from "./permission-rules.js";
import type { ShellRedirect } from "./shell-analysis.js";
import { namesOfPathWord } from "./shell-globs.js";
import { baseName, clip } from "./shell-text.js";
import type { ShellRun } from "./shell-walk.js";

/** A path rule (`read(secret/**)`, `Edit(src/**)`), as parsed. */
type PathRule = Extract<PermissionRule, { kind: "path" }>;

/** Whether a path rule judges what a program reads or what it changes; undefined when it judges neither. */
export type PathAccess = "read" | "write";

/**
 * What a path rule judges of a shell command: reads for rules naming the read tool (`read(…)`, Claude
 * Code's `Read(…)`), changes for rules naming edit or write (`edit(…)`, `Edit(…)`, `Write(…)`). A rule
 * with its own scope (rules parsed with one) is read from the scope: a rule limited to one other tool
 * (`Grep(…)`) or to a tool's own `path` argument does not judge the shell.
 */
export function pathRuleAccess(rule: PathRule): PathAccess | undefined {
	const scope = (rule as { scope?: { access?: string; tool?: string } }).scope;
	if (scope !== undefined) {
		if (scope.access === "write") return "write";
		return scope.access === "read" && scope.tool === undefined ? "read" : undefined;
	}
	if (rule.matchesTool("read")) return "read";
	if (rule.matchesTool("edit") || rule.matchesTool("write")) return "write";
	return undefined;
}

/** A path rule that covers a file a shell line reads or changes, and what the line does to it. */
export interface DeniedShellPath {
	rule: PathRule;
	/** For people: `cat reads secret/a.txt`. */
	what: string;
}

/** Why the paths of a line cannot all be told, per access. */
export type UnknownShellPaths = Record<PathAccess, string[]>;

/** One file the line touches: the word as bash gives it, where it starts from, and what is done to it. */
interface Touch {
	typed: string;
	access: PathAccess;
	tree: boolean;
	what: string;
}

const DESCRIPTORS = /^(\d+|-)$/;
const HARMLESS_DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero"]);
const OUTPUT_OPERATORS = new Set([">", ">>", "&>", "&>>", ">|", ">&", "<>"]);

/** The folders relative paths may start from: the working folder and every `cd` of the line. */
function basesOf(run: ShellRun, host: CallPathHost, unknown: UnknownShellPaths): string[] {
	const bases = [host.cwd];
	for (const command of run.commands) {
		const name = baseName(command.program.text);
		if (name !== "cd" && name !== "pushd" && name !== "popd") continue;
		const target = command.args.find((word) => !(word.literal && /^-[LPe@]+$/.test(word.text)));
		if (name === "popd" || (target !== undefined && (!target.literal || target.text === "-"))) {
			const why = `the line changes folder (${clip(command.text)}) to a place not known before it runs`;
			unknown.read.push(why);
			unknown.write.push(why);
			continue;
		}
		const destination = target === undefined ? "~" : target.text;
		for (const base of [...bases]) {
			const next =
				destination.startsWith("~") || host.syntax.isAbsolute(destination)
					? host.resolvePath(destination)
					: host.syntax.resolve(base, destination);
			if (!bases.includes(next) && bases.length < 16) bases.push(next);
		}
	}
	return bases;
}

function redirectTouch(
	redirect: ShellRedirect,
): { touches: Omit<Touch, "typed">[]; word: ShellRedirect["target"] } | undefined {
	const { operator, target } = redirect;
	if ((operator === ">&" || operator === "<&") && target.literal && DESCRIPTORS.test(target.text)) return undefined;
	if (target.literal && (HARMLESS_DEVICES.has(target.text) || /^\/dev\/fd\/\d+$/.test(target.text))) return undefined;
	const what = `${operator} ${clip(target.text)}`;
	const touches: Omit<Touch, "typed">[] = [];
	if (operator.startsWith("<")) touches.push({ access: "read", tree: false, what: `the redirection ${what} reads it` });
	if (OUTPUT_OPERATORS.has(operator))
		touches.push({ access: "write", tree: false, what: `the redirection ${what} writes it` });
	return { touches, word: target };
}

/** Every file a line names as a program's operand or a redirection, with the names bash may give it. */
async function touchesOf(run: ShellRun, host: CallPathHost, unknown: UnknownShellPaths): Promise<Touch[]> {
	const bases = basesOf(run, host, unknown);
	const touches: Touch[] = [];
	const add = async (word: FileOperand["word"], kinds: Omit<Touch, "typed">[], guessed: boolean) => {
		const named = await namesOfPathWord(word, host, host.cwd);
		if ("unknown" in named) {
			if (!guessed) for (const kind of kinds) unknown[kind.access].push(`${kind.what} (${named.unknown})`);
			return;
		}
		for (const typed of named.names) {
			if (typed === "") continue;
			// /proc/self/cwd, /proc/<pid>/root, … name bash's own places: where they lead cannot be told here.
			if (/^\/proc\//.test(typed)) {
				for (const kind of kinds) unknown[kind.access].push(`${kind.what} (where a /proc path leads cannot be told)`);
				continue;
			}
			const absolute = typed.startsWith("~") || host.syntax.isAbsolute(typed);
			for (const base of absolute ? [host.cwd] : bases) {
				const full = absolute ? host.resolvePath(typed) : host.syntax.resolve(base, typed);
				for (const kind of kinds) touches.push({ ...kind, typed: full });
			}
		}
	};
	for (const command of run.commands) {
		if (command.names.length === 0) continue;
		const name = baseName(command.program.text);
		// A wrapper's words are the command it runs, judged as a command of its own.
		if (isCommandWrapper(name)) continue;
		const files = fileOperandsOf(name, command.args);
		for (const why of files.unknown) unknown.write.push(why);
		for (const operand of files.operands) {
			const verb = operand.access === "read" ? "reads" : "changes";
			const what = `${name} ${verb} ${clip(operand.word.text)}`;
			await add(
				operand.word,
				[{ access: operand.access, tree: operand.tree === true, what }],
				operand.guessed === true,
			);
		}
	}
	for (const redirect of run.redirects) {
		const touch = redirectTouch(redirect);
		if (touch) await add(touch.word, touch.touches, false);
	}
	return touches;
}

/** Entries looked at under a folder a command changes whole, before the answer counts as unknown. */
const MAX_TREE_ENTRIES = 10_000;

/** Where a rule's pattern starts being a pattern: `secret` for `secret/**`, the working folder for `**\/.env`. */
function patternRoot(pattern: string, host: CallPathHost): string {
	const fixed = pattern.slice(0, pattern.search(/[*?[{]|$/));
	const root = fixed.includes("/") ? fixed.slice(0, fixed.lastIndexOf("/")) : "";
	if (root === "") return pattern.startsWith("/") ? "/" : host.cwd;
	if (root.startsWith("~") || host.syntax.isAbsolute(root)) return host.resolvePath(root);
	return host.syntax.resolve(host.cwd, root);
}

/**
 * Whether changing everything under a folder reaches a file the rule covers: the folder holds the
 * pattern's root (`rm -r .` under `edit(secret/**)`), or, for a pattern that reaches any depth
 * (`**\/.env`), an entry below it matches (looked for, up to a bound). `"unknown"` past the bound.
 */
async function treeReaches(rule: PathRule, locations: CallLocations): Promise<boolean | "unknown"> {
	const { host } = locations;
	const { sep, relative, join } = host.syntax;
	const root = patternRoot(rule.pattern, host);
	const folders = [...new Set(locations.places.flatMap(({ written, real }) => [written.path, real.path]))];
	const holdsRoot = (folder: string) =>
		folder === root || root.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
	if (folders.some(holdsRoot)) return true;
	if (!rule.pattern.includes("**")) return false;
	const matcher = compilePathGlob(rule.pattern.replace(/^\.\//, ""));
	const absolute = rule.pattern.startsWith("/") || rule.pattern.startsWith("~");
	const test = (path: string) => matcher.test(absolute ? path : relative(host.cwd, path).split(sep).join("/"));
	let seen = 0;
	for (const folder of folders) {
		if (root !== "/" && !folder.startsWith(`${root}${sep}`)) continue;
		const queue = [folder];
		for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
			const entries = await host.lookup.readdir(next).catch(() => undefined);
			if (entries === undefined) continue;
			for (const entry of entries) {
				if (++seen > MAX_TREE_ENTRIES) return "unknown";
				const path = join(next, entry.name);
				if (test(path)) return true;
				queue.push(path);
			}
		}
	}
	return false;
}

/**
 * Judges the files a shell line names — operands of reading and changing programs (`cat`, `head`,
 * `grep`, `cp`, `mv`, `rm`, `tee`, `sed -i`, `dd if=/of=`…) and redirections (`< f`, `> f`, `>> f`) —
 * against deny rules on paths, on the session's host (links followed, look-alike names, `~`, `cd`s of
 * the line, globs and braces expanded there). A best effort on the parse, without a sandbox: a program
 * that opens files it was not given as words is not seen. Returns the first rule that covers a file,
 * and what could not be told, per access.
 */
export async function findDeniedShellPath(
	run: ShellRun,
	rules: readonly PermissionRule[],
	host: CallPathHost,
): Promise<{ denied?: DeniedShellPath; unknown: UnknownShellPaths }> {
	const unknown: UnknownShellPaths = { read: [], write: [] };
	const pathRules = rules.filter(
		(rule): rule is PathRule => rule.kind === "path" && pathRuleAccess(rule) !== undefined,
	);
	if (pathRules.length === 0) return { unknown };
	const touches = await touchesOf(run, host, unknown);
	const located = new Map<string, Promise<CallLocations>>();
	const locate = (typed: string) => {
		let found = located.get(typed);
		if (found === undefined) {
			found = locateCallPath(host, typed);
			located.set(typed, found);
		}
		return found;
	};
	for (const touch of touches) {
		const relevant = pathRules.filter((rule) => pathRuleAccess(rule) === touch.access);
		if (relevant.length === 0) continue;
		let locations: CallLocations;
		try {
			locations = await locate(touch.typed);
		} catch (error) {
			unknown[touch.access].push(clip(errorText(error), 300));
			continue;
		}
		for (const rule of relevant) {
			const reaches = touch.tree ? await treeReaches(rule, locations) : false;
			if (reaches === "unknown") {
				unknown[touch.access].push(`${touch.what} (more than ${MAX_TREE_ENTRIES} files below it)`);
			}
			if (globCovers(rule.pattern, locations, false) || reaches === true) {
				return { denied: { rule, what: touch.what }, unknown };
			}
		}
	}
	return { unknown };
}
