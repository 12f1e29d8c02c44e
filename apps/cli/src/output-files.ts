import { mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/** How long full-output files are kept. */
export const OUTPUT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** The most the full-output files of all sessions may take together; the oldest go first. */
export const OUTPUT_MAX_BYTES = 256 * 1024 * 1024;

const OUTPUT_SUFFIX = ".output";

/**
 * The folder next to a transcript that keeps its runs' full-output files (bash output too long for the
 * model): `…/2026-12-01T10-00-00-000Z_ab12cd.jsonl` → `…/2026-12-01T10-00-00-000Z_ab12cd.output`.
 */
export function outputFolderFor(sessionFile: string): string {
	return `${sessionFile.replace(/\.jsonl$/, "")}${OUTPUT_SUFFIX}`;
}

/** Creates the folder (only its owner may read it). */
export function prepareOutputFolder(folder: string): void {
	mkdirSync(folder, { recursive: true, mode: 0o700 });
}

/** Removes the folder when the run left nothing in it. */
export function removeIfEmpty(folder: string): void {
	try {
		if (readdirSync(folder).length === 0) rmdirSync(folder);
	} catch {
		// Already gone, or not ours to remove: nothing to tidy.
	}
}

/** What a prune removed. */
export interface PruneResult {
	removedFiles: number;
	removedBytes: number;
}

/**
 * Removes full-output files older than `maxAgeMs`, then the oldest ones until all of them together take
 * at most `maxBytes`, and output folders left empty. Looks only at `*.output` folders one level below
 * each session folder of `root` (`~/.gantry/sessions`); transcripts are never touched.
 */
export function pruneOutputFolders(
	root: string,
	options: { maxAgeMs?: number; maxBytes?: number; now?: number } = {},
): PruneResult {
	const maxAge = options.maxAgeMs ?? OUTPUT_MAX_AGE_MS;
	const maxBytes = options.maxBytes ?? OUTPUT_MAX_BYTES;
	const now = options.now ?? Date.now();
	const files: { path: string; size: number; time: number }[] = [];
	const folders: string[] = [];
	for (const sessionFolder of listFolders(root)) {
		for (const name of safeReaddir(sessionFolder)) {
			if (!name.endsWith(OUTPUT_SUFFIX)) continue;
			const folder = join(sessionFolder, name);
			folders.push(folder);
			for (const name of safeReaddir(folder)) {
				const path = join(folder, name);
				const stats = statSync(path, { throwIfNoEntry: false });
				if (stats?.isFile()) files.push({ path, size: stats.size, time: stats.mtimeMs });
			}
		}
	}
	files.sort((a, b) => a.time - b.time);
	let total = files.reduce((sum, file) => sum + file.size, 0);
	const result: PruneResult = { removedFiles: 0, removedBytes: 0 };
	for (const file of files) {
		if (now - file.time <= maxAge && total <= maxBytes) break;
		rmSync(file.path, { force: true });
		total -= file.size;
		result.removedFiles++;
		result.removedBytes += file.size;
	}
	for (const folder of folders) removeIfEmpty(folder);
	return result;
}

function safeReaddir(folder: string): string[] {
	try {
		return readdirSync(folder);
	} catch {
		return [];
	}
}

function listFolders(folder: string): string[] {
	return safeReaddir(folder)
		.map((name) => join(folder, name))
		.filter((path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true);
}
