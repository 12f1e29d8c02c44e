import type { ShellCommandAnalysis, ShellSimpleCommand } from "./shell-analysis.js";
import { isHarmlessAssignment } from "./shell-environment.js";
import type { ShellWord } from "./shell-words.js";

/**
 * How a read-only program's words are checked: `undefined` means any words; a function gets the words
 * after the program (each known before the line runs) and says whether they keep it read-only.
 */
type ArgumentCheck = ((args: readonly ShellWord[]) => boolean) | undefined;

const texts = (args: readonly ShellWord[]) => args.map((word) => word.text);

/**
 * No word is one of `options`: a short one alone, with a value attached (`-ofile`) or in a cluster
 * (`-no`); a long one exactly, with `=value`, or abbreviated, as GNU programs and git accept
 * (`--out=file` is `--output=file`).
 */
function without(options: readonly string[]): (args: readonly ShellWord[]) => boolean {
	return (args) => !texts(args).some((text) => options.some((option) => namesOption(text, option)));
}

function namesOption(text: string, option: string): boolean {
	if (option.startsWith("--")) {
		const name = text.includes("=") ? text.slice(0, text.indexOf("=")) : text;
		return name.startsWith("--") && name.length >= 3 && option.startsWith(name);
	}
	return text === option || (text.startsWith(option) && !text.startsWith("--")) || clusterHas(text, option);
}

/** Whether a short-option cluster (`-nf`) holds the one-letter option `option` (`-f`). */
function clusterHas(text: string, option: string): boolean {
	return option.length === 2 && /^-[a-zA-Z]+$/.test(text) && text.slice(1).includes(option.slice(1));
}

function operandCount(args: readonly ShellWord[]): number {
	return args.filter((word) => !word.text.startsWith("-") || word.text === "-").length;
}

/** Codex's checks for `find`: no option that runs a command, deletes, or writes a file. */
const FIND_UNSAFE = ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"];
/** git options before the sub-command that only say where the repository is, or turn the pager off. */
const GIT_GLOBAL =
	/^(--no-pager|--git-dir=.*|--work-tree=.*|--no-optional-locks|--literal-pathspecs|--no-replace-objects|-P)$/;
/** Options of the sub-command that write a file or run an external program (git accepts abbreviations). */
const GIT_UNSAFE = ["--output", "--ext-diff", "--textconv", "--exec"];
const GIT_READING = new Set(["status", "log", "diff", "show"]);
const GIT_BRANCH_LISTING =
	/^(--list|-l|--show-current|-a|--all|-r|--remotes|-v|-vv|--verbose|--format=.*|--no-color|--color(=.*)?)$/;

/**
 * `git status|log|diff|show` and a listing `git branch`, as Codex allows them: before the sub-command
 * only `-C dir` and options that name the repository (no `-c`, `--config-env`, `--exec-path`, `-p`);
 * after it no `--output`, `--ext-diff`, `--textconv` or `--exec`.
 */
function gitIsReadOnly(args: readonly ShellWord[]): boolean {
	const words = texts(args);
	let index = 0;
	for (; index < words.length; index++) {
		const word = words[index] ?? "";
		if (word === "-C") index++;
		else if (GIT_GLOBAL.test(word)) continue;
		else if (word.startsWith("-")) return false;
		else break;
	}
	const subcommand = words[index];
	const rest = words.slice(index + 1);
	if (rest.some((word) => GIT_UNSAFE.some((option) => word.length >= 4 && namesOption(word, option)))) return false;
	if (subcommand !== undefined && GIT_READING.has(subcommand)) return true;
	if (subcommand === "branch") return rest.every((word) => GIT_BRANCH_LISTING.test(word));
	return false;
}

/** `sed -n 5p` / `sed -n 1,20p` (and files): printing lines, Codex's one allowed form. */
function sedPrintsLines(args: readonly ShellWord[]): boolean {
	const [flag, script, ...files] = texts(args);
	return flag === "-n" && /^\d+(,\d+)?p$/.test(script ?? "") && files.every((file) => !file.startsWith("-"));
}

/**
 * Programs that only read (files, the system's state) with the words that keep them so, after Codex's
 * safe-command list and Claude Code's read-only set. Programs with options that write, run commands or
 * never end are checked; those with none take any words.
 */
const READ_ONLY: Record<string, ArgumentCheck> = {
	ls: undefined,
	cat: undefined,
	head: undefined,
	// `-f` follows a file forever, also in the old `-3f` / `+3f` form.
	tail: (args) =>
		without(["-f", "-F", "--follow", "--retry"])(args) && !args.some((word) => /^[-+]\d*[bcl]?f$/.test(word.text)),
	wc: undefined,
	nl: undefined,
	cut: undefined,
	tr: undefined,
	rev: undefined,
	tac: undefined,
	paste: undefined,
	fold: undefined,
	expand: undefined,
	unexpand: undefined,
	comm: undefined,
	join: undefined,
	cmp: undefined,
	diff: undefined,
	od: undefined,
	hexdump: undefined,
	strings: undefined,
	md5sum: undefined,
	sha1sum: undefined,
	sha224sum: undefined,
	sha256sum: undefined,
	sha384sum: undefined,
	sha512sum: undefined,
	b2sum: undefined,
	cksum: undefined,
	stat: undefined,
	du: undefined,
	df: undefined,
	realpath: undefined,
	readlink: undefined,
	basename: undefined,
	dirname: undefined,
	which: undefined,
	whoami: undefined,
	id: undefined,
	groups: undefined,
	nproc: undefined,
	arch: undefined,
	pwd: undefined,
	true: undefined,
	false: undefined,
	echo: undefined,
	seq: undefined,
	expr: undefined,
	numfmt: undefined,
	cd: undefined,
	grep: undefined,
	egrep: undefined,
	fgrep: undefined,
	jq: undefined,
	uname: undefined,
	printf: without(["-v"]),
	uniq: (args) => operandCount(args) <= 1,
	xxd: (args) => operandCount(args) <= 1,
	sort: without(["-o", "--output", "--compress-program"]),
	base64: without(["-o", "--output"]),
	file: without(["-C", "--compile"]),
	date: without(["-s", "--set"]),
	hostname: (args) => args.length === 0,
	rg: without(["--pre", "--hostname-bin", "--search-zip", "-z"]),
	find: (args) => !texts(args).some((word) => FIND_UNSAFE.includes(word)),
	git: gitIsReadOnly,
	sed: sedPrintsLines,
	command: (args) => args[0]?.text === "-v" || args[0]?.text === "-V",
	type: undefined,
};

/** Whether one simple command is a known read-only program with words that keep it so. */
export function isReadOnlyCommand(command: ShellSimpleCommand): boolean {
	const { words } = command;
	let index = 0;
	for (; index < words.length; index++) {
		const word = words[index];
		if (!word || !/^[A-Za-z_]\w*=/.test(word.text)) break;
		const equals = word.text.indexOf("=");
		if (!word.literal || !isHarmlessAssignment(word.text.slice(0, equals), word.text.slice(equals + 1))) return false;
	}
	const program = words[index];
	if (program === undefined || !program.literal || program.expands === true) return false;
	if (!Object.hasOwn(READ_ONLY, program.text)) return false;
	const args = words.slice(index + 1);
	const check = READ_ONLY[program.text];
	if (check === undefined) return true;
	// A program with words that can harm needs every word known: a glob could name a file called `-delete`.
	return args.every((word) => word.literal && word.expands !== true) && check(args);
}

/**
 * Whether bare names reach only installed programs: a `PATH` folder that is not absolute (`.`, an empty
 * entry) would let a file of the project named `ls` run for `ls`. `searchPath` defaults to this process's.
 */
export function pathFindsOnlyInstalledPrograms(searchPath = process.env.PATH ?? ""): boolean {
	return searchPath.split(":").every((folder) => folder.startsWith("/"));
}

/**
 * Whether a parsed line only reads: every simple command a known read-only program with safe words
 * (`ls`, `cat`, `grep`, `find` without `-exec`/`-delete`/`-fprint…`, `git status|log|diff|show`, `sed -n
 * 5p`, …), joined by pipes, `&&`, `||`, `;` and grouping, with no substitution, no redirection to a file
 * (`/dev/null` and `2>&1` are fine; reading with `<` is too), and no assignment that changes what runs;
 * and this process's `PATH` holds only absolute folders (see `pathFindsOnlyInstalledPrograms`).
 */
export function isReadOnlyShellLine(analysis: ShellCommandAnalysis): boolean {
	// bash opens a connection for `< /dev/tcp/host/port`: not reading a file.
	const network = analysis.redirects.some((redirect) => /^\/dev\/(tcp|udp)\//.test(redirect.target.text));
	return (
		!network &&
		pathFindsOnlyInstalledPrograms() &&
		analysis.parsed &&
		analysis.problems.length === 0 &&
		analysis.uncheckable.length === 0 &&
		analysis.commands.length > 0 &&
		analysis.commands.every(isReadOnlyCommand)
	);
}

/** The programs `isReadOnlyShellLine` knows, for documentation and listings. */
export const READ_ONLY_PROGRAMS: readonly string[] = Object.keys(READ_ONLY).sort();
