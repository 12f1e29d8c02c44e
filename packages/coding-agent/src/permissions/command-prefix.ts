import type { ShellSimpleCommand } from "./shell-analysis.js";
import { baseName } from "./shell-text.js";

/** What "always" would remember for one simple command: its first words, or why none are safe. */
export type CommandPrefix = { words: string[] } | { refused: string };

/**
 * Programs whose second word picks what they do (`git status`, `npm test`, `make build`): the prefix keeps
 * both words, so remembering `git status` does not allow `git push`.
 */
const SUBCOMMAND_PROGRAMS = new Set([
	"apt",
	"apt-get",
	"brew",
	"bun",
	"cargo",
	"composer",
	"conda",
	"deno",
	"docker",
	"dotnet",
	"gh",
	"git",
	"go",
	"gradle",
	"helm",
	"hg",
	"just",
	"kubectl",
	"make",
	"mvn",
	"npm",
	"pip",
	"pip3",
	"pipx",
	"pnpm",
	"podman",
	"poetry",
	"rustup",
	"svn",
	"systemctl",
	"terraform",
	"turbo",
	"uv",
	"yarn",
]);

/**
 * Sub-commands that run whatever the next word names (`npm run build`, `pnpm exec tsc`, `uv run pytest`):
 * the prefix keeps that word too. `npx` and `bunx` are runners on their own.
 */
const RUNNER_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
	npm: new Set(["run", "run-script", "exec", "x"]),
	pnpm: new Set(["run", "exec", "dlx"]),
	yarn: new Set(["run", "exec", "dlx"]),
	bun: new Set(["run", "x"]),
	uv: new Set(["run", "tool"]),
	poetry: new Set(["run"]),
	pipx: new Set(["run"]),
	conda: new Set(["run"]),
	deno: new Set(["run", "task"]),
};
const RUNNER_PROGRAMS = new Set(["npx", "bunx", "uvx"]);

/**
 * Programs that run other commands or code given in their arguments (`sudo rm`, `xargs rm`, `bash -c`,
 * `node -e`, `find -exec`): remembering any prefix of them would allow nearly anything.
 */
const RUNS_OTHER_COMMANDS = new Set([
	"awk",
	"bash",
	"builtin",
	"busybox",
	"chroot",
	"command",
	"csh",
	"dash",
	"doas",
	"env",
	"fish",
	"find",
	"gawk",
	"ionice",
	"ksh",
	"nice",
	"node",
	"nodejs",
	"nohup",
	"perl",
	"php",
	"powershell",
	"pwsh",
	"python",
	"python2",
	"python3",
	"ruby",
	"setsid",
	"sh",
	"ssh",
	"stdbuf",
	"strace",
	"su",
	"sudo",
	"tcsh",
	"time",
	"timeout",
	"watch",
	"xargs",
	"zsh",
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A word that is a name, not an option or a path pattern: `test`, `run-script`, `build:prod`, `@scope/pkg`. */
const PLAIN_WORD = /^[A-Za-z0-9@_][A-Za-z0-9@_.:/+-]*$/;
const PATTERN_CHARACTERS = /[*?[{]/;

/**
 * The prefix "always" remembers for a simple command: its leading assignments, the program, and for
 * {@link SUBCOMMAND_PROGRAMS} the sub-command (for runners such as `npm run` and `npx`, also what they
 * run); any other program is remembered bare (`ls`, `rm`). Refuses programs that run other commands,
 * words not known before the line runs (`$x`) or that are patterns (`t*`), and an option where the
 * sub-command belongs (`git -C dir status`).
 */
export function commandPrefixOf(command: ShellSimpleCommand): CommandPrefix {
	const { words } = command;
	let index = 0;
	for (const word of words) {
		if (!word.literal || !ASSIGNMENT.test(word.text)) break;
		index++;
	}
	const program = words[index];
	if (!program) return { refused: `\`${command.text}\` names no program` };
	const needed = [program];
	const name = baseName(program.text);
	if (RUNS_OTHER_COMMANDS.has(name)) {
		return { refused: `\`${name}\` runs other commands, so no prefix of \`${command.text}\` is safe to remember` };
	}
	const runsNext = RUNNER_PROGRAMS.has(name);
	if (SUBCOMMAND_PROGRAMS.has(name) || runsNext) {
		const next = words[index + 1];
		if (!next?.literal || !PLAIN_WORD.test(next.text)) {
			const what = runsNext ? "name of what it runs" : "sub-command";
			return {
				refused: `in \`${command.text}\` no ${what} follows \`${name}\`, so there is no safe prefix to remember`,
			};
		}
		needed.push(next);
		if (!runsNext && RUNNER_SUBCOMMANDS[name]?.has(next.text)) {
			const target = words[index + 2];
			if (!target?.literal || !PLAIN_WORD.test(target.text)) {
				return {
					refused: `in \`${command.text}\` no name of what it runs follows \`${name} ${next.text}\`, so there is no safe prefix to remember`,
				};
			}
			needed.push(target);
		}
	}
	const prefix = [...words.slice(0, index), ...needed];
	const unknown = prefix.find((word) => !word.literal || PATTERN_CHARACTERS.test(word.text) || word.text === "");
	if (unknown) {
		return { refused: `\`${command.text}\` starts with ${unknown.text || "an empty word"}, which is not a fixed word` };
	}
	return { words: prefix.map((word) => word.text) };
}

const BARE_RULE_WORD = /^[A-Za-z0-9@_.,:/+=%-]+$/;

/** One word as a rule writes it: bare, in single quotes, or with every special character escaped. */
function ruleWord(word: string): string {
	if (BARE_RULE_WORD.test(word)) return word;
	if (!/['\\]/.test(word)) return `'${word}'`;
	return word.replace(/[^A-Za-z0-9]/g, (character) => `\\${character}`);
}

/** The allow rule for a prefix: `bash(npm test:*)`. */
export function commandPrefixRule(toolName: string, words: readonly string[]): string {
	return `${toolName}(${words.map(ruleWord).join(" ")}:*)`;
}
