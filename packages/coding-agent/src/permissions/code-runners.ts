import { type OptionSpec, scanOptions } from "./command-options.js";
import type { ShellWord } from "./shell-words.js";

/** What a simple command makes run besides itself. */
export type RunFinding =
	/** Another command (its words from the program on), judged like one written in the line. */
	| { runs: ShellWord[]; via: string }
	/** Shell code (`bash -c '…'`, `eval …`), parsed and judged like the line. */
	| { code: string; via: string }
	/** It runs something the parse cannot show. */
	| { unchecked: string };

/** Shells whose `-c` code Gantry parses as bash (POSIX shells and zsh read alike for what matters here). */
const BASH_LIKE_SHELLS = new Set([
	"bash",
	"sh",
	"dash",
	"zsh",
	"ksh",
	"mksh",
	"ash",
	"yash",
	"posh",
	"rbash",
	"lksh",
	"oksh",
	"loksh",
]);
/** Shells with another language: any code they run cannot be parsed here. */
const OTHER_SHELLS = new Set([
	"fish",
	"csh",
	"tcsh",
	"nu",
	"pwsh",
	"powershell",
	"elvish",
	"xonsh",
	"rc",
	"es",
	"ion",
	"osh",
	"oil",
]);

const SHELL_OPTIONS: OptionSpec = {
	flags: [
		..."abefhkmnptuvxBCEHPTilrsDc".split("").map((letter) => `-${letter}`),
		"--debug",
		"--debugger",
		"--dump-po-strings",
		"--dump-strings",
		"--login",
		"--noediting",
		"--noprofile",
		"--norc",
		"--posix",
		"--pretty-print",
		"--restricted",
		"--verbose",
		"--no-rcs",
		"--no-globalrcs",
	],
	withValue: ["-o", "-O", "--init-file", "--rcfile"],
};

/** Interpreters and the options that give them their program inline. */
const INLINE_CODE: Record<string, readonly string[]> = {
	python: ["-c"],
	perl: ["-e", "-E"],
	ruby: ["-e"],
	node: ["-e", "--eval", "-p", "--print"],
	nodejs: ["-e", "--eval", "-p", "--print"],
	bun: ["-e", "--eval", "-p", "--print"],
	deno: ["eval", "-e"],
	php: ["-r", "-R", "-B", "-E"],
	lua: ["-e"],
	luajit: ["-e"],
	rscript: ["-e"],
	julia: ["-e", "-E"],
	osascript: ["-e"],
	expect: ["-c"],
	guile: ["-c", "-e"],
	racket: ["-e"],
	tclsh: [],
	wish: [],
	irb: [],
	jshell: [],
	groovy: ["-e"],
	elixir: ["-e"],
	erl: ["-eval"],
	sbcl: ["--eval"],
};

/** Programs that run what they are given as commands or code in ways Gantry does not unpack. */
const OPAQUE_RUNNERS: Record<string, string> = {
	xargs: "`xargs` runs a command with arguments read at run time",
	parallel: "`parallel` runs commands built at run time",
	watch: "`watch` runs its arguments as a shell command",
	source: "`source` runs the code of a file",
	".": "`.` runs the code of a file",
	alias: "an alias changes what a name runs on later lines",
	hash: "`hash` can change which file a name runs",
	enable: "`enable` can load builtins from a file or hide them",
	shopt: "`shopt` can turn on aliases and other ways of running code",
	strace: "`strace` runs a command after options Gantry does not unpack",
	ltrace: "`ltrace` runs a command after options Gantry does not unpack",
	valgrind: "`valgrind` runs a command after options Gantry does not unpack",
	perf: "`perf` runs a command after options Gantry does not unpack",
	gdb: "`gdb` can run commands given to it",
	script: "`script` runs a shell or the command given to it",
	flock: "`flock` runs a command after options Gantry does not unpack",
	su: "`su` runs a shell or the command given to it",
	runuser: "`runuser` runs a shell or the command given to it",
	sg: "`sg` runs the command given to it",
	newgrp: "`newgrp` starts a shell",
	unshare: "`unshare` runs a command after options Gantry does not unpack",
	nsenter: "`nsenter` runs a command after options Gantry does not unpack",
	firejail: "`firejail` runs a command after options Gantry does not unpack",
	"systemd-run": "`systemd-run` runs a command after options Gantry does not unpack",
	"start-stop-daemon": "`start-stop-daemon` runs a command after options Gantry does not unpack",
	"run-parts": "`run-parts` runs every program in a folder",
	fakeroot: "`fakeroot` runs a command after options Gantry does not unpack",
	chrt: "`chrt` runs a command after options Gantry does not unpack",
	nix: "`nix` can run commands given to it",
	"nix-shell": "`nix-shell` can run commands given to it",
	direnv: "`direnv` can run commands given to it",
	dotenv: "`dotenv` runs a command after options Gantry does not unpack",
	"env-cmd": "`env-cmd` runs a command after options Gantry does not unpack",
	vim: "`vim` can run commands given to it",
	vi: "`vi` can run commands given to it",
	nvim: "`nvim` can run commands given to it",
	ex: "`ex` can run commands given to it",
	ed: "`ed` runs `!` commands it reads",
	emacs: "`emacs` can run code given to it",
};

function literalText(word: ShellWord | undefined): string | undefined {
	return word?.literal === true && word.expands !== true ? word.text : undefined;
}

function shellFindings(name: string, args: readonly ShellWord[]): RunFinding[] {
	const scan = scanOptions(args, SHELL_OPTIONS);
	if ("unknown" in scan) return [{ unchecked: `what \`${name}\` runs cannot be told: ${scan.unknown}` }];
	const operand = args[scan.operands];
	if (scan.seen.has("-c")) {
		const code = literalText(operand);
		if (code === undefined) {
			return [{ unchecked: `the code \`${name} -c\` runs is not known before the line runs` }];
		}
		return [{ code, via: `${name} -c` }];
	}
	if (scan.seen.has("-s") || scan.seen.has("-i") || operand === undefined) {
		return [{ unchecked: `\`${name}\` reads the commands it runs from its input` }];
	}
	// A script file: what it runs is the file's business, as for any program.
	return literalText(operand) === undefined
		? [{ unchecked: `the script \`${name}\` runs is not known before the line runs` }]
		: [];
}

/** `find … -exec cmd {} ;`: each command it runs, which the person cannot see run per file. */
function findFindings(args: readonly ShellWord[]): RunFinding[] {
	const findings: RunFinding[] = [];
	for (let index = 0; index < args.length; index++) {
		const word = args[index];
		if (!word?.literal || !/^-(exec|execdir|ok|okdir)$/.test(word.text)) continue;
		const end = args.findIndex((next, at) => at > index && next.literal && (next.text === ";" || next.text === "+"));
		const command = args.slice(index + 1, end === -1 ? args.length : end);
		if (command.length > 0) findings.push({ runs: command, via: `find ${word.text}` });
		findings.push({ unchecked: `\`find ${word.text}\` runs a command for every file it finds` });
		if (end !== -1) index = end;
	}
	return findings;
}

/** Whether an interpreter gets its program inline (`-c`, `-e`, perl's `-ne`) or from its input. */
function interpreterFindings(name: string, key: string, args: readonly ShellWord[]): RunFinding[] {
	const inline = INLINE_CODE[key] ?? [];
	const clustered = key === "perl" || key === "ruby";
	const given = args.find(
		(word) =>
			!word.literal ||
			inline.includes(word.text) ||
			inline.some((option) => word.text.startsWith(`${option}=`)) ||
			(clustered && /^-[a-zA-Z]*[eE]/.test(word.text)),
	);
	if (given) return [{ unchecked: `\`${name} ${given.text}\` runs code the parse cannot read` }];
	const script = args.find((word) => !word.text.startsWith("-"));
	if (!script && !args.some((word) => word.text === "-m")) {
		return [{ unchecked: `\`${name}\` reads the code it runs from its input` }];
	}
	return [];
}

/** awk runs commands through `system(…)` and pipes (`print | "cmd"`, `"cmd" | getline`). */
function awkFindings(name: string, args: readonly ShellWord[]): RunFinding[] {
	const program = args.find((word, index) => !word.text.startsWith("-") && args[index - 1]?.text !== "-v");
	if (args.some((word) => /^(-f|--file|-l|--load|-E|--exec)/.test(word.text))) {
		return args.some((word) => /^(-l|--load|-E|--exec)/.test(word.text))
			? [{ unchecked: `\`${name}\` loads code from a file` }]
			: [];
	}
	if (!program?.literal) return [{ unchecked: `the program \`${name}\` runs is not known before the line runs` }];
	if (/system|\||getline|@load/.test(program.text)) {
		return [{ unchecked: `the \`${name}\` program can run commands (system, a pipe or getline)` }];
	}
	return [];
}

/** GNU sed's `e` command and the `e` flag of `s` run the pattern space as a command. */
function sedFindings(args: readonly ShellWord[]): RunFinding[] {
	const scripts: ShellWord[] = [];
	let explicit = false;
	for (let index = 0; index < args.length; index++) {
		const word = args[index];
		if (!word) continue;
		if (word.text === "-e" || word.text === "--expression") {
			explicit = true;
			const script = args[index + 1];
			if (script) scripts.push(script);
			index++;
		} else if (word.text.startsWith("--expression=")) {
			explicit = true;
			scripts.push({ ...word, text: word.text.slice("--expression=".length) });
		} else if (word.text === "-f" || word.text.startsWith("--file")) explicit = true;
	}
	if (!explicit) {
		const first = args.find((word) => !word.text.startsWith("-"));
		if (first) scripts.push(first);
	}
	for (const script of scripts) {
		if (!script.literal) return [{ unchecked: "the `sed` script is not known before the line runs" }];
		if (
			/(^|[;{}\n\s\d$/!])e(\s|;|}|$)/.test(script.text) ||
			/s(.)(?:\\.|(?!\1)[^\\])*\1(?:\\.|(?!\1)[^\\])*\1[a-zA-Z0-9]*e/.test(script.text)
		) {
			return [{ unchecked: "the `sed` script runs commands (the e command or flag)" }];
		}
	}
	return [];
}

const GIT_RUNS =
	/^(-c.*|--config-env.*|--exec-path.*|--upload-pack.*|--receive-pack.*|--exec(=.*)?|--extcmd.*|-x|--tool.*)$/;

function gitFindings(args: readonly ShellWord[]): RunFinding[] {
	const given = args.find((word) => !word.literal || GIT_RUNS.test(word.text));
	if (given) return [{ unchecked: `\`git ${given.text}\` can make git run a command` }];
	const config = args.findIndex((word) => word.text === "config");
	const reading = /^(--get.*|-l|--list|--show-origin|--show-scope|get|list)$/;
	if (config !== -1 && args.length > config + 2 && !args.slice(config + 1).some((word) => reading.test(word.text))) {
		return [{ unchecked: "`git config` can set an alias, pager or hook that runs a command later" }];
	}
	const words = args.map((word) => word.text);
	const pairs = ["bisect run", "submodule foreach", "filter-branch", "filter-repo"];
	const found = pairs.find((pair) => words.join(" ").includes(pair));
	return found ? [{ unchecked: `\`git ${found}\` runs commands given to it` }] : [];
}

const CONTAINER_TOOLS = new Set(["docker", "podman", "nerdctl"]);
const CONTAINER_RUNS = new Set(["run", "exec", "create", "start", "compose", "container"]);

/** Options of common programs that make them run a command given as their value. */
const RUNS_VIA_OPTION: Record<string, RegExp> = {
	tar: /^(--to-command|--checkpoint-action|-I|--use-compress-program|-F|--info-script|--new-volume-script|--rsh-command|--rmt-command)/,
	rsync: /^(-e|--rsh|--rsync-path)/,
	zip: /^(-TT|--unzip-command)/,
	scp: /^(-S|-o|-F)/,
	sftp: /^(-S|-o|-F|-D)/,
	make: /^(--eval|-E|SHELL=|\.SHELLFLAGS=)/,
	less: /^(-.*[+]|\+)/,
	man: /^(-P|--pager|-H|--html)/,
	rg: /^(--pre|--hostname-bin)/,
	sqlite3: /^(\.shell|\.system|-cmd)/,
};

/** Programs that run code (shells, interpreters, `eval`, `find -exec`, …) and what Gantry can tell of it. */
export function codeRunnerFindings(name: string, args: readonly ShellWord[]): RunFinding[] {
	if (BASH_LIKE_SHELLS.has(name)) return shellFindings(name, args);
	if (OTHER_SHELLS.has(name)) return [{ unchecked: `\`${name}\` runs code in another shell's language` }];
	if (name === "eval") {
		const code = args.map(literalText);
		const known = code.every((text) => text !== undefined);
		return [
			...(known ? [{ code: code.join(" "), via: "eval" }] : []),
			{ unchecked: "`eval` runs a string as shell code" },
		];
	}
	if (name === "trap") {
		const action = literalText(args[0]);
		if (args.length < 2 || action === undefined || /^-/.test(action))
			return action === undefined && args.length > 0
				? [{ unchecked: "the code `trap` runs is not known before the line runs" }]
				: [];
		return [{ code: action, via: "trap" }];
	}
	if (name === "find") return findFindings(args);
	if (CONTAINER_TOOLS.has(name) && args.some((word) => CONTAINER_RUNS.has(word.text))) {
		return [{ unchecked: `\`${name}\` runs commands in a container, which can reach this machine's files` }];
	}
	if (name === "ssh") {
		return args.some((word) => !word.text.startsWith("-"))
			? [{ unchecked: "`ssh` runs commands on another host" }]
			: [];
	}
	if (name === "mapfile" || name === "readarray") {
		return args.some((word) => /^-.*C/.test(word.text)) ? [{ unchecked: `\`${name} -C\` runs a callback` }] : [];
	}
	const opaque = OPAQUE_RUNNERS[name];
	if (opaque) return [{ unchecked: opaque }];
	if (name === "awk" || name === "gawk" || name === "mawk" || name === "nawk") return awkFindings(name, args);
	if (name === "sed" || name === "gsed") return sedFindings(args);
	if (name === "git") return gitFindings(args);
	const option = RUNS_VIA_OPTION[name];
	if (option) {
		const given = args.find((word) => !word.literal || option.test(word.text));
		return given ? [{ unchecked: `\`${name} ${given.text}\` can make it run a command` }] : [];
	}
	const family = /^(python|pypy|perl|ruby|php|lua|node)\d*(\.\d+)*$/.exec(name)?.[1];
	const interpreter = family === "pypy" ? "python" : (family ?? name.toLowerCase());
	if (interpreter in INLINE_CODE) return interpreterFindings(name, interpreter, args);
	return [];
}
