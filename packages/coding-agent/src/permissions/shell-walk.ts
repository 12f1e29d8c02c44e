import { whatCommandRuns } from "./command-runners.js";
import type { CallPathHost } from "./path-glob.js";
import { analyzeShellCommand, type ShellCommandAnalysis, type ShellRedirect } from "./shell-analysis.js";
import { baseName, clip } from "./shell-text.js";
import type { ShellWord } from "./shell-words.js";

/** A command a shell line runs, seen as bash runs it: written in the line, or run by another. */
export interface RunCommand {
	/** Its words as written, assignments first. */
	words: readonly ShellWord[];
	/** The program word (after the assignments). */
	program: ShellWord;
	/** The words after the program. */
	args: readonly ShellWord[];
	/**
	 * The names the program runs under: as written, its basename (`/bin/rm` is `rm`), and for a path, the
	 * basename of where its links lead. Empty when the name is not known before the line runs.
	 */
	names: string[];
	/** The command's text, for messages. */
	text: string;
	/** What ran it, outermost first (`sudo`, `bash -c`); empty for a command written in the line. */
	via: string[];
}

/** Every command a line runs that Gantry can see, and why it may run others it cannot. */
export interface ShellRun {
	commands: RunCommand[];
	/** The redirections to and from files of the line and of the code it runs (`bash -c '… > f'`). */
	redirects: ShellRedirect[];
	/** Why the line may run commands the parse cannot show (empty when it cannot). */
	unchecked: string[];
}

/** Wrappers inside wrappers and shells inside shells are followed this deep, and this many commands in all. */
const MAX_DEPTH = 8;
const MAX_COMMANDS = 2_000;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

interface Pending {
	words: readonly ShellWord[];
	text: string;
	via: string[];
	depth: number;
}

/**
 * Follows a parsed line the way bash runs it: each simple command (inside substitutions too), the
 * command each wrapper runs (`sudo`, `env`, `nice`, `timeout`, `command`, `exec`, `xargs`, `find -exec`…),
 * and the code given to `bash -c`, `sh -c`, `zsh -c` and `eval`, parsed in turn, bounded in depth. What
 * cannot be followed — `eval`, `xargs`, `find -exec`, `source`, inline interpreter code, a command name
 * from an expansion, a pattern or ANSI-C quotes, a program path that does not exist yet, an unparsable
 * line — is listed in `unchecked`. Program paths are looked up on `host` (links followed).
 */
export async function followShellLine(analysis: ShellCommandAnalysis, host: CallPathHost): Promise<ShellRun> {
	const run: ShellRun = { commands: [], redirects: [], unchecked: [] };
	const pending: Pending[] = [];
	const changesFolder = analysis.commands.some((command) => /^(cd|pushd|popd)$/.test(command.words[0]?.text ?? ""));
	const add = (parsed: ShellCommandAnalysis, via: string[], depth: number) => {
		if (!parsed.parsed) {
			const why = parsed.problems.find((problem) => !problem.startsWith("command substitution"));
			const what = via.length > 0 ? `the code \`${via.at(-1)}\` runs` : "the command";
			run.unchecked.push(`${what} could not be parsed${why ? ` (${why})` : ""}`);
		}
		run.unchecked.push(...parsed.uncheckable);
		run.redirects.push(...parsed.redirects);
		for (const command of parsed.commands) pending.push({ words: command.words, text: command.text, via, depth });
	};
	add(analysis, [], 0);
	for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
		if (run.commands.length >= MAX_COMMANDS) {
			run.unchecked.push(`the line runs more than ${MAX_COMMANDS} commands`);
			break;
		}
		const { words, depth } = next;
		let start = 0;
		while (start < words.length && ASSIGNMENT.test(words[start]?.text ?? "")) start++;
		const program = words[start];
		if (program === undefined) continue;
		const args = words.slice(start + 1);
		const command: RunCommand = { words, program, args, names: [], text: next.text, via: next.via };
		run.commands.push(command);
		if (!program.literal) {
			run.unchecked.push(`the command name comes from an expansion (${clip(program.text)})`);
			continue;
		}
		if (program.expands === true || program.text.startsWith("=")) {
			run.unchecked.push(`the command name ${clip(program.text)} is a pattern bash expands to other names`);
			continue;
		}
		command.names = await namesOf(program.text, host, changesFolder, run.unchecked);
		if (depth >= MAX_DEPTH) {
			run.unchecked.push(`commands nested too deeply to judge (${clip(next.text)})`);
			continue;
		}
		for (const finding of whatCommandRuns(baseName(program.text), args)) {
			if ("unchecked" in finding) run.unchecked.push(finding.unchecked);
			else if ("runs" in finding) {
				const text = finding.runs.map((word) => word.text).join(" ");
				pending.push({ words: finding.runs, text, via: [...next.via, finding.via], depth: depth + 1 });
			} else add(await analyzeShellCommand(finding.code), [...next.via, finding.via], depth + 1);
		}
	}
	run.unchecked = [...new Set(run.unchecked)];
	return run;
}

/**
 * The names a program word runs under (see `RunCommand.names`). A path that does not exist yet (the line
 * may create it) or that a `cd` in the line moves cannot be told.
 */
async function namesOf(program: string, host: CallPathHost, changesFolder: boolean, unchecked: string[]) {
	const names = new Set([program, baseName(program)]);
	if (!program.includes("/")) {
		const found = await searchPath(program, host);
		if (found !== undefined) names.add(baseName(found));
		return [...names];
	}
	if (changesFolder && !program.startsWith("/") && !program.startsWith("~")) {
		unchecked.push(`the line changes folder, so which file ${program} is cannot be told`);
		return [...names];
	}
	try {
		names.add(baseName(await host.realpath(host.resolvePath(program))));
	} catch (error) {
		const code = (error as { code?: unknown } | null)?.code;
		const why = code === "ENOENT" || code === "ENOTDIR" ? "does not exist yet" : "cannot be looked at";
		unchecked.push(`the program ${program} ${why}, so what it is cannot be told`);
	}
	return [...names];
}

/**
 * Where bash finds a bare name on this machine's `PATH`, links followed (`zap` → `/usr/bin/rm` when a
 * link in a `PATH` folder points there); undefined when none holds it, or the host is not this machine
 * (another host's `PATH` is not known here).
 */
async function searchPath(name: string, host: CallPathHost): Promise<string | undefined> {
	if (host.label !== "this machine") return undefined;
	for (const folder of (process.env.PATH ?? "").split(":")) {
		if (!folder.startsWith("/")) continue;
		try {
			return await host.realpath(host.syntax.join(folder, name));
		} catch {
			// Not in this folder.
		}
	}
	return undefined;
}
