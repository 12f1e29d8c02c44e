import { codeRunnerFindings, type RunFinding } from "./code-runners.js";
import { type OptionSpec, scanOptions } from "./command-options.js";
import { changesWhatRuns } from "./shell-environment.js";
import type { ShellWord } from "./shell-words.js";

export type { RunFinding } from "./code-runners.js";

/** A wrapper: its options, and how many operands come before the command it runs. */
interface Wrapper {
	options: OptionSpec;
	/** Operands before the command (`timeout 5 cmd`: one; `chroot /new cmd`: one). Default none. */
	leading?: number;
	/** Options that make it run no command (`command -v x` only prints). */
	noCommand?: readonly string[];
	/** Options that make it run something else the parse cannot show (`sudo -s`, `env -S`). */
	opaque?: readonly string[];
	/** What it does without a command (`chroot /new` starts a shell). Default: runs nothing. */
	alone?: string;
	/** Whether `NAME=value` operands come before the command (`env X=1 cmd`). */
	assignments?: boolean;
}

const WRAPPERS: Record<string, Wrapper> = {
	builtin: { options: {} },
	command: { options: { flags: ["-p", "-v", "-V"] }, noCommand: ["-v", "-V"] },
	exec: { options: { flags: ["-c", "-l"], withValue: ["-a"] } },
	nohup: { options: {} },
	nice: { options: { withValue: ["-n", "--adjustment"], numeric: true } },
	env: {
		options: {
			flags: ["-i", "-0", "-v", "--ignore-environment", "--null", "--debug", "--list-signal-handling"],
			withValue: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
			optionalValue: ["--block-signal", "--default-signal", "--ignore-signal"],
		},
		opaque: ["-S", "--split-string"],
		assignments: true,
	},
	timeout: {
		options: {
			flags: ["-v", "--verbose", "--foreground", "--preserve-status"],
			withValue: ["-s", "--signal", "-k", "--kill-after"],
		},
		leading: 1,
	},
	time: {
		options: {
			flags: ["-p", "-a", "-v", "-q", "--portability", "--append", "--verbose", "--quiet"],
			withValue: ["-f", "--format", "-o", "--output"],
		},
	},
	stdbuf: { options: { withValue: ["-i", "-o", "-e", "--input", "--output", "--error"] } },
	setsid: { options: { flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait"] } },
	chroot: {
		options: { flags: ["--skip-chdir"], withValue: ["--userspec", "--groups"] },
		leading: 1,
		alone: "`chroot` without a command starts an interactive shell",
	},
	sudo: {
		options: {
			flags: ["-A", "-b", "-E", "-H", "-n", "-P", "-S", "-k", "-K", "-l", "-v", "-V", "-s", "-i", "-e"],
			withValue: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "-R", "--user", "--group", "--chdir"],
		},
		noCommand: ["-l", "-v", "-V", "-K"],
		opaque: ["-s", "-i", "-e"],
		alone: "`sudo` without a command runs nothing the parse can show",
	},
	doas: { options: { flags: ["-n", "-s", "-L"], withValue: ["-u", "-C"] }, opaque: ["-s"] },
	ionice: { options: { flags: ["-t"], withValue: ["-c", "-n", "-P", "-u"] }, opaque: ["-p"] },
	taskset: { options: { flags: ["-a", "-c", "--all-tasks", "--cpu-list"] }, leading: 1, opaque: ["-p"] },
	unbuffer: { options: { flags: ["-p"] } },
	coproc: { options: {} },
	busybox: { options: {} },
	toybox: { options: {} },
	"cross-env": { options: {}, assignments: true },
	"cross-env-shell": { options: {}, assignments: true },
};

/**
 * Package-manager sub-commands that run the command named after them (`pnpm exec rm`), as words
 * following the sub-command; an option before the command makes it unknowable (its value could be it).
 */
const RUNNER_SUBCOMMANDS: Record<string, readonly string[]> = {
	npm: ["exec", "x"],
	pnpm: ["exec", "dlx"],
	yarn: ["exec", "dlx"],
	bun: ["x", "exec"],
	uv: ["run", "tool"],
	poetry: ["run"],
	pipenv: ["run"],
	pipx: ["run"],
	pdm: ["run"],
	hatch: ["run"],
	rye: ["run"],
	conda: ["run"],
	mamba: ["run"],
	mise: ["exec", "x"],
	asdf: ["exec"],
};
const RUNNER_PROGRAMS = new Set(["npx", "bunx", "uvx", "pnpx"]);

function wrapped(name: string, wrapper: Wrapper, args: readonly ShellWord[]): RunFinding[] {
	const scan = scanOptions(args, wrapper.options);
	if ("unknown" in scan) return [{ unchecked: `what \`${name}\` runs cannot be told: ${scan.unknown}` }];
	if (wrapper.noCommand?.some((option) => scan.seen.has(option))) return [];
	const opaque = wrapper.opaque?.find((option) => scan.seen.has(option));
	if (opaque) return [{ unchecked: `\`${name} ${opaque}\` runs something the parse cannot show` }];
	let index = scan.operands;
	const findings: RunFinding[] = [];
	if (wrapper.assignments === true) {
		for (; index < args.length; index++) {
			const word = args[index];
			if (word === undefined || !word.literal) break;
			const equals = word.text.indexOf("=");
			if (equals <= 0 || !/^[A-Za-z_][^=]*$/.test(word.text.slice(0, equals))) break;
			const variable = word.text.slice(0, equals);
			if (changesWhatRuns(variable) || !/^[A-Za-z_]\w*$/.test(variable)) {
				findings.push({ unchecked: `\`${name}\` sets ${variable}, which changes what programs run` });
			}
		}
	}
	index += wrapper.leading ?? 0;
	const rest = args.slice(index);
	if (rest.length === 0) return wrapper.alone ? [...findings, { unchecked: wrapper.alone }] : findings;
	return [...findings, { runs: rest, via: name }];
}

/** A package manager's runner sub-command, or a runner program: the command it runs, when it can be told. */
function runnerFindings(name: string, args: readonly ShellWord[]): RunFinding[] | undefined {
	let rest: readonly ShellWord[];
	if (RUNNER_PROGRAMS.has(name)) rest = args;
	else {
		const subcommands = RUNNER_SUBCOMMANDS[name];
		const at = subcommands ? args.findIndex((word) => word.literal && subcommands.includes(word.text)) : -1;
		if (at === -1) return undefined;
		rest = args.slice(at + 1);
	}
	const first = rest[0];
	if (first === undefined) return [];
	if (first.literal && first.text === "--") rest = rest.slice(1);
	else if (!first.literal || first.text.startsWith("-")) {
		return [{ unchecked: `what \`${name}\` runs cannot be told past the option ${first.text}` }];
	}
	return rest.length === 0 ? [] : [{ runs: [...rest], via: name }];
}

/** Whether `name` is a wrapper that runs the command after its options (`env`, `sudo`, `timeout`, `nice`…). */
export function isCommandWrapper(name: string): boolean {
	return Object.hasOwn(WRAPPERS, name) || RUNNER_PROGRAMS.has(name);
}

/**
 * What a simple command runs besides itself, by its program's name (`name`, a basename) and the words
 * after it: the command a wrapper runs (`sudo`, `env`, `timeout`, `nice`, `xargs`…), the code a shell or
 * `eval` is given, or why that cannot be told (`find -exec`, `python -c`, `watch`, `ssh host cmd`…).
 */
export function whatCommandRuns(name: string, args: readonly ShellWord[]): RunFinding[] {
	const wrapper = WRAPPERS[name];
	if (wrapper) return wrapped(name, wrapper, args);
	return runnerFindings(name, args) ?? codeRunnerFindings(name, args);
}
