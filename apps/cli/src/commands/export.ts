import { resolve } from "node:path";
import { usageError } from "../errors.js";
import { exportTranscript } from "../export/write-export.js";
import type { CliIo } from "../io.js";

const EXPORT_HELP = `Usage
  gantry export SESSION.jsonl [-o FILE.html]

Writes the session as one self-contained HTML page (no external URL: styles, script and images inline)
that a person can open in any browser. Default output: the transcript's path with .html.
Sessions live under ~/.gantry/sessions/<folder>-<hash>/; /session in interactive mode names the current one.
`;

/** `gantry export SESSION.jsonl [-o FILE.html]`: resolves to the exit code; usage errors are thrown. */
export async function runExportCommand(argv: readonly string[], io: CliIo, cwd = process.cwd()): Promise<number> {
	let input: string | undefined;
	let output: string | undefined;
	// One iterator, so an option takes the word after it as its value.
	const remaining = argv.values();
	for (const word of remaining) {
		if (word === "-h" || word === "--help") {
			io.stdout.write(EXPORT_HELP);
			return 0;
		}
		if (word === "-o" || word === "--output") {
			const value = remaining.next().value;
			if (value === undefined || value === "") throw usageError(`${word} needs a file name, e.g. ${word} session.html`);
			output = value;
		} else if (word.startsWith("--output=")) output = word.slice("--output=".length);
		else if (word.startsWith("-")) throw usageError(`Unknown option for export: ${word}`);
		else if (input === undefined) input = word;
		else throw usageError(`export takes one transcript, got a second one: ${word}`);
	}
	if (input === undefined) throw usageError("export needs a transcript: gantry export SESSION.jsonl [-o FILE.html]");
	const result = exportTranscript(resolve(cwd, input), output === undefined ? undefined : resolve(cwd, output));
	const skipped = result.skippedLines > 0 ? ` (${result.skippedLines} unreadable line(s) left out)` : "";
	io.stderr.write(`Exported to ${result.outputPath}${skipped}\n`);
	io.stdout.write(`${result.outputPath}\n`);
	return 0;
}
