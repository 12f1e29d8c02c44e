import { errorText } from "@gantry/ai";
import { listTranscriptCheckpoints, type RewindOptions, rewindTranscript } from "@gantry/coding-agent";
import { CliError, usageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { findSession } from "../session-list.js";
import { checkpointLabel, rewindResultLines } from "../tui/rewind-command.js";
import { themeFor } from "../tui/theme.js";
import { resolveWorkingFolder } from "../working-folder.js";

const REWIND_HELP = `Usage
  gantry rewind SESSION            list the session's prompts, each with the files changed from it on
  gantry rewind SESSION N          go back to before prompt N: its files and the conversation
  gantry rewind SESSION N --code   the files only (the conversation stays)
  gantry rewind SESSION N --conversation
                                   the conversation only (the files stay)

SESSION is a session id as gantry sessions shows it (a unique start is enough) or a transcript path.
Only what the session's tools changed is put back; a file changed outside the session since is left as
it is and named. The next gantry --resume goes on from the rewound conversation. --cwd DIR: the folder
whose sessions the id is looked up in (default: this one). Needs no key.
`;

/** `gantry rewind SESSION [N] [--code|--conversation] [--cwd DIR]`: resolves to the exit code; usage errors are thrown. */
export async function runRewindCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const words: string[] = [];
	const what: RewindOptions = {};
	let cwd: string | undefined;
	// One iterator, so an option takes the word after it as its value.
	const remaining = argv.values();
	for (const word of remaining) {
		if (word === "-h" || word === "--help") {
			io.stdout.write(REWIND_HELP);
			return 0;
		}
		if (word === "--code") what.code = true;
		else if (word === "--conversation") what.conversation = true;
		else if (word === "--cwd" || word === "-C") {
			cwd = remaining.next().value;
			if (cwd === undefined || cwd === "") throw usageError(`${word} needs a folder, e.g. ${word} ~/project`);
		} else if (word.startsWith("--cwd=")) cwd = word.slice("--cwd=".length);
		else if (word.startsWith("-")) throw usageError(`Unknown option for rewind: ${word} (gantry rewind --help)`);
		else words.push(word);
	}
	const [reference, number, extra] = words;
	if (reference === undefined)
		throw usageError("rewind needs a session: gantry rewind SESSION [N] (gantry sessions lists them)");
	if (extra !== undefined) throw usageError(`rewind takes a session and a prompt number, got a third word: ${extra}`);
	const sessionFile = findSession(reference, resolveWorkingFolder(cwd));
	const theme = themeFor(io.stdout, io.env);
	const checkpoints = failing(() => listTranscriptCheckpoints(sessionFile));
	if (number === undefined) {
		if (checkpoints.length === 0) io.stdout.write(`${theme.muted("The session has no prompt to rewind to.")}\n`);
		else io.stdout.write(`${checkpoints.map(checkpointLabel).join("\n")}\n`);
		return 0;
	}
	const position = /^\d+$/.test(number) ? Number(number) : Number.NaN;
	if (!(position >= 1 && position <= checkpoints.length)) {
		throw usageError(
			`rewind ${reference} ${number}: the prompt number must be 1 to ${checkpoints.length} (gantry rewind ${reference} lists them)`,
		);
	}
	if (what.code === undefined && what.conversation === undefined)
		Object.assign(what, { code: true, conversation: true });
	const result = await failingAsync(() =>
		rewindTranscript({
			sessionFile,
			checkpoint: position,
			...what,
			notify: (message) => io.stderr.write(`gantry: ${message}\n`),
		}),
	);
	io.stdout.write(`${rewindResultLines(result, what, theme).join("\n")}\n`);
	return 0;
}

function failing<T>(run: () => T): T {
	try {
		return run();
	} catch (error) {
		throw new CliError("session_failed", errorText(error), { cause: error });
	}
}

async function failingAsync<T>(run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		throw new CliError("session_failed", errorText(error), { cause: error });
	}
}
