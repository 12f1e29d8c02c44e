import type { ShellWord } from "./shell-words.js";

/** A file a command names and what it does to it. */
export interface FileOperand {
	word: ShellWord;
	access: "read" | "write";
	/** The command changes everything under this folder too (`rm -r`, `mv`, `find -delete`, `chmod -R`). */
	tree?: true;
	/**
	 * Present (true) for an operand of a program Gantry does not know: it may be a file the program reads,
	 * or only text. One not known before the line runs is then not a reason to stop.
	 */
	guessed?: true;
}

/** The files a command names, and why some cannot be told (a program that writes files named at run time). */
export interface FileOperands {
	operands: FileOperand[];
	unknown: string[];
}

/** Programs whose operands are never files (their words are read as text, numbers or names). */
const NOT_FILES = new Set([
	"echo",
	"printf",
	"true",
	"false",
	":",
	"test",
	"[",
	"exit",
	"return",
	"sleep",
	"seq",
	"expr",
	"basename",
	"dirname",
	"kill",
	"export",
	"set",
	"unset",
	"shift",
	"wait",
	"type",
	"which",
	"whereis",
	"command",
	"hash",
	"date",
	"id",
	"whoami",
	"uname",
	"pwd",
	"hostname",
	"yes",
	"cd",
	"pushd",
	"popd",
	"read",
	"let",
	"local",
	"declare",
	"printenv",
]);

/** Programs known to read the files they are given (their operands are files, or a pattern then files). */
const READS_OPERANDS = new Set(
	"cat tac nl head tail less more most wc sort uniq cut paste join comm diff diff3 sdiff cmp od xxd hexdump hd strings base64 base32 basenc md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum file stat ls dir tree du grep egrep fgrep rg ag ack awk gawk mawk sed jq yq column fold fmt pr expand unexpand rev shuf bat batcat view source . zcat zless zmore zgrep bzcat xzcat lzcat zstdcat iconv split csplit tar zip sqlite3 python python3 node perl ruby php bash sh zsh dash".split(
		" ",
	),
);

/** Programs that change every file they name. */
const CHANGES_OPERANDS = new Set([
	"rm",
	"rmdir",
	"unlink",
	"shred",
	"truncate",
	"touch",
	"mkdir",
	"chmod",
	"chown",
	"chgrp",
	"chattr",
	"setfacl",
	"mkfifo",
	"mknod",
	"tee",
	"sponge",
	"dos2unix",
	"unix2dos",
	"mac2unix",
	"gzip",
	"gunzip",
	"bzip2",
	"bunzip2",
	"xz",
	"unxz",
	"lzma",
	"unlzma",
	"zstd",
	"unzstd",
	"compress",
	"uncompress",
	"patch",
	"vim",
	"vi",
	"nvim",
	"nano",
	"emacs",
	"ed",
	"ex",
	"pico",
	"micro",
	"code",
	"mv",
]);

/** Programs that read their operands and write the last one (or the `-t` folder). */
const COPIES = new Set(["cp", "install", "ln", "rsync", "scp", "link"]);
/** Programs that write files named by what they read (an archive's members): which ones cannot be told. */
const EXTRACTS = new Set(["unzip", "7z", "7za", "unrar", "cpio", "ar"]);
/** git sub-commands that change the files they are given (or, given none, any). */
const GIT_WRITES_NAMED = new Set(["checkout", "restore", "clean", "rm", "mv", "reset"]);
/** git sub-commands that change files of the working tree (those named, or any when none is). */
const GIT_WRITES = new Set([
	"checkout",
	"restore",
	"reset",
	"clean",
	"rm",
	"mv",
	"stash",
	"apply",
	"am",
	"merge",
	"pull",
	"rebase",
	"switch",
	"cherry-pick",
	"revert",
]);

function isOption(word: ShellWord): boolean {
	return word.literal && word.text.startsWith("-") && word.text !== "-";
}

/** The operands (not options) of a command, and the values of `--name=value` options, which may be files. */
function operandsOf(args: readonly ShellWord[]): ShellWord[] {
	const operands: ShellWord[] = [];
	let afterDashes = false;
	for (const word of args) {
		if (!afterDashes && word.literal && word.text === "--") afterDashes = true;
		else if (!afterDashes && isOption(word)) {
			const equals = word.text.indexOf("=");
			if (word.text.startsWith("--") && equals > 0) operands.push({ ...word, text: word.text.slice(equals + 1) });
		} else operands.push(word);
	}
	return operands;
}

function hasOption(args: readonly ShellWord[], short: string, long?: string): boolean {
	return args.some(
		(word) =>
			isOption(word) &&
			((!word.text.startsWith("--") && word.text.slice(1).includes(short)) ||
				(long !== undefined && (word.text === long || word.text.startsWith(`${long}=`)))),
	);
}

function optionValue(args: readonly ShellWord[], names: readonly string[]): ShellWord | undefined {
	for (let index = 0; index < args.length; index++) {
		const word = args[index];
		if (!word?.literal) continue;
		if (names.includes(word.text)) return args[index + 1];
		const long = names.find((name) => name.startsWith("--") && word.text.startsWith(`${name}=`));
		if (long) return { ...word, text: word.text.slice(long.length + 1) };
	}
	return undefined;
}

const read = (word: ShellWord): FileOperand => ({ word, access: "read" });
const written = (word: ShellWord, tree = false): FileOperand => ({
	word,
	access: "write",
	...(tree ? { tree: true } : {}),
});

/**
 * The files a command names, by its program's name (a basename) and its words after it: reading programs
 * (`cat`, `head`, `grep`, `sort`, and by default any program: each operand it is given may be a file it
 * reads) and changing ones (`rm`, `mv`, `cp`'s target, `tee`, `sed -i`, `dd of=`, `sort -o`, `truncate`,
 * `chmod`…). Options are skipped; a `--name=value` option's value counts as an operand.
 */
export function fileOperandsOf(name: string, args: readonly ShellWord[]): FileOperands {
	const result: FileOperands = { operands: [], unknown: [] };
	if (NOT_FILES.has(name)) return result;
	const operands = operandsOf(args);
	const push = (operand: FileOperand) => result.operands.push(operand);
	if (name === "dd") {
		for (const word of args) {
			if (word.text.startsWith("if=")) push(read({ ...word, text: word.text.slice(3) }));
			if (word.text.startsWith("of=")) push(written({ ...word, text: word.text.slice(3) }));
		}
		return result;
	}
	if (CHANGES_OPERANDS.has(name)) {
		const recursive = hasOption(args, "R", "--recursive") || (name === "rm" && hasOption(args, "r"));
		const tree = name === "mv" || (recursive && (name === "rm" || /^ch(mod|own|grp)$/.test(name)));
		for (const word of operands) push(written(word, tree));
		// What `mv` moves can be read under its new name.
		if (name === "mv") for (const word of operands.slice(0, -1)) push(read(word));
		if (name === "patch" && operands.length === 0)
			result.unknown.push("`patch` changes the files named in the patch it reads");
		return result;
	}
	if (COPIES.has(name)) {
		const target = optionValue(args, ["-t", "--target-directory"]);
		const sources = target ? operands : operands.slice(0, -1);
		// A link to a file, or a copy of it, is a way to read it later.
		for (const word of sources) push(read(word));
		const destination = target ?? operands.at(-1);
		if (destination && (target || operands.length > 1 || name === "ln"))
			push(written(destination, hasOption(args, "", "--delete")));
		return result;
	}
	if (EXTRACTS.has(name)) {
		for (const word of operands) push(read(word));
		if (!(name === "unzip" && hasOption(args, "l")))
			result.unknown.push(`\`${name}\` writes files named inside what it reads`);
		return result;
	}
	const known = READS_OPERANDS.has(name);
	for (const word of operands) push(known ? read(word) : { ...read(word), guessed: true });
	if (name === "sed" || name === "perl") {
		if (hasOption(args, "i", "--in-place")) for (const word of operands) push(written(word));
	} else if (name === "awk" || name === "gawk") {
		const inplace = args.some(
			(word, index) => word.text === "--include=inplace" || (word.text === "-i" && args[index + 1]?.text === "inplace"),
		);
		if (inplace) for (const word of operands) push(written(word));
	} else if (name === "sort") {
		const output = optionValue(args, ["-o", "--output"]);
		if (output) push(written(output));
	} else if (name === "uniq" || name === "xxd") {
		const output = operands[1];
		if (output) push(written(output));
	} else if (name === "iconv" || name === "base64") {
		const output = optionValue(args, ["-o", "--output"]);
		if (output) push(written(output));
	} else if (name === "split" || name === "csplit") {
		const prefix = operands.at(-1);
		if (prefix && operands.length > 1) push(written(prefix));
	} else if (name === "tar") tarOperands(args, result);
	else if (name === "find" && args.some((word) => word.text === "-delete")) {
		for (const word of operands.filter((operand) => !operand.text.startsWith("-"))) push(written(word, true));
	} else if (name === "git") gitOperands(operands, result);
	return result;
}

function tarOperands(args: readonly ShellWord[], result: FileOperands): void {
	const first = args[0]?.text ?? "";
	const mode = first.startsWith("-") ? first : `-${first}`;
	const extracts = /^-[^-]*x/.test(mode) || args.some((word) => word.text === "--extract" || word.text === "--get");
	const creates = /^-[^-]*[cru]/.test(mode) || args.some((word) => /^--(create|append|update)$/.test(word.text));
	const archive = optionValue(args, ["-f", "--file"]) ?? (/^-?[a-zA-Z]*f$/.test(first) ? args[1] : undefined);
	if (creates && archive) result.operands.push(written(archive));
	if (extracts) result.unknown.push("`tar` writes files named inside the archive it reads");
}

function gitOperands(operands: readonly ShellWord[], result: FileOperands): void {
	// `REV:path` names a file of the repository: the part after the colon is read.
	for (const word of operands) {
		const colon = word.text.indexOf(":");
		if (word.literal && colon > 0) result.operands.push(read({ ...word, text: word.text.slice(colon + 1) }));
	}
	const subcommand = operands[0]?.text;
	if (subcommand === undefined || !GIT_WRITES.has(subcommand)) return;
	if (!GIT_WRITES_NAMED.has(subcommand)) {
		result.unknown.push(`\`git ${subcommand}\` changes files of the working tree it does not name`);
		return;
	}
	const paths = operands.slice(1);
	for (const word of paths) result.operands.push(written(word, subcommand === "clean" || subcommand === "rm"));
	if (paths.length === 0)
		result.unknown.push(`\`git ${subcommand}\` changes files of the working tree it does not name`);
}
