import { writeFileSync } from "node:fs";
import { basename, extname } from "node:path";
import type { ToolDefinition } from "@gantry/extensions";
import { CliError } from "../errors.js";
import { renderTranscriptHtml } from "./html-transcript.js";
import { readTranscript } from "./read-transcript.js";

/** Where an export goes when no output file is named: the transcript's path with `.html`. */
export function defaultExportPath(transcriptPath: string): string {
	const extension = extname(transcriptPath);
	return `${extension === "" ? transcriptPath : transcriptPath.slice(0, -extension.length)}.html`;
}

/** What {@link exportTranscript} wrote. */
export interface ExportResult {
	/** The HTML file. */
	outputPath: string;
	/** Its size in bytes. */
	bytes: number;
	/** Transcript lines that could not be read and were left out. */
	skippedLines: number;
}

/**
 * Reads the JSONL transcript at `transcriptPath` and writes it as one self-contained HTML page to
 * `outputPath` (default: {@link defaultExportPath}). Throws `session_failed` when either file fails.
 */
export function exportTranscript(
	transcriptPath: string,
	outputPath: string = defaultExportPath(transcriptPath),
	getDefinition?: (name: string) => ToolDefinition | undefined,
): ExportResult {
	if (outputPath === transcriptPath) {
		throw new CliError(
			"session_failed",
			`The export would overwrite the transcript ${transcriptPath}: name an .html file`,
		);
	}
	const transcript = readTranscript(transcriptPath);
	const html = renderTranscriptHtml(transcript, `Gantry session ${basename(transcriptPath)}`, getDefinition);
	try {
		writeFileSync(outputPath, html, "utf8");
	} catch (error) {
		throw new CliError("session_failed", `Cannot write ${outputPath}: ${(error as Error).message}`, { cause: error });
	}
	return { outputPath, bytes: Buffer.byteLength(html), skippedLines: transcript.skippedLines };
}
