import { basename } from "node:path";
import { withoutUndefined } from "@gantry/ai";
import { TimeSlicer, throwIfAborted } from "../abort.js";
import { createGlobFilter } from "../search/glob-filter.js";
import { IgnoreRules } from "../search/ignore-rules.js";
import type { SearchFileReader } from "../search/types.js";
import { type WalkOperations, walkFiles } from "../search/walk.js";
import { countMatches, type GrepEngineRequest, type GrepEngineResult, type GrepFileResult } from "./engine.js";
import { FileSearcher, type GrepLine } from "./file-searcher.js";
import { type CompiledPattern, compilePattern } from "./pattern.js";

/** The I/O of the built-in engine: the walk (listings, .gitignore files) and the files' bytes. */
export interface BuiltinEngineOperations extends WalkOperations {
	/** Opens a file to search. May reject (the file is then skipped). */
	open(path: string): Promise<SearchFileReader>;
}

/** Files searched at once; with the local (synchronous) reads this only matters for remote operations. */
const CONCURRENCY = 8;
/** Files up to this size are read in one piece into a reused buffer; larger ones are streamed through it. */
const SCRATCH_BYTES = 256 * 1024;
const EMPTY = Buffer.alloc(0);
const NEWLINE = 10;

const scratchPool: Buffer[] = [];

/**
 * Searches one file; resolves to its lines, or undefined when it has no match, is binary (holds a NUL
 * byte) or cannot be read. Never rejects.
 */
async function searchFile(
	operations: BuiltinEngineOperations,
	path: string,
	pattern: CompiledPattern,
	context: number,
	maxMatches: number,
): Promise<GrepLine[] | undefined> {
	let reader: SearchFileReader;
	try {
		reader = await operations.open(path);
	} catch {
		return undefined;
	}
	const scratch = scratchPool.pop() ?? Buffer.allocUnsafe(SCRATCH_BYTES);
	try {
		const searcher = new FileSearcher(pattern, context, maxMatches);
		// Small files (most of a source tree) fit the buffer: one run, no copies, no lines counted in vain.
		let filled = 0;
		let count = -1;
		while (filled < scratch.length && count !== 0) {
			count = await reader.read(scratch, filled, scratch.length - filled);
			filled += count;
		}
		if (count === 0) {
			const bytes = scratch.subarray(0, filled);
			searcher.push(bytes, true);
			// The NUL check costs a scan, so it waits until the file turns out to matter.
			return searcher.matchCount > 0 && bytes.indexOf(0) < 0 ? searcher.lines : undefined;
		}
		let carry: Buffer | undefined;
		let bytes: Buffer = scratch;
		while (true) {
			if (bytes.indexOf(0) >= 0) return undefined;
			if (carry !== undefined) {
				bytes = Buffer.concat([carry, bytes]);
				carry = undefined;
			}
			const cut = bytes.lastIndexOf(NEWLINE);
			// Copies: the scratch buffer is overwritten by the next read.
			if (cut + 1 < bytes.length) carry = Buffer.from(bytes.subarray(cut + 1));
			if (cut >= 0) searcher.push(bytes.subarray(0, cut + 1), false);
			if (searcher.finished) break;
			count = await reader.read(scratch, 0, scratch.length);
			if (count === 0) break;
			bytes = scratch.subarray(0, count);
		}
		searcher.push(carry ?? EMPTY, true);
		return searcher.matchCount > 0 ? searcher.lines : undefined;
	} catch {
		return undefined;
	} finally {
		if (scratchPool.length < CONCURRENCY) scratchPool.push(scratch);
		await reader.close().catch(() => undefined);
	}
}

/**
 * The engine written in TypeScript, always available: walks the folder in path order with the
 * .gitignore rules, searches up to `CONCURRENCY` files at a time and stops as soon as the matches
 * wanted are found in order. Throws for an invalid pattern and `Operation aborted` on abort.
 */
export async function runBuiltinEngine(
	request: GrepEngineRequest,
	operations: BuiltinEngineOperations,
): Promise<GrepEngineResult> {
	const { root, context, maxMatches, signal } = request;
	const pattern = compilePattern(request);
	throwIfAborted(signal);
	const { skip } = request;
	if (request.isFile) {
		if (skip?.(basename(root))) return { files: [], skipped: 1 };
		const lines = await searchFile(operations, root, pattern, context, maxMatches);
		return { files: lines ? [{ path: basename(root), lines }] : [], skipped: 0 };
	}
	if (pattern.never && skip === undefined) return { files: [], skipped: 0 };

	const rules = await IgnoreRules.forRoot(root, operations, request.gitUser);
	const filter = request.glob ? createGlobFilter(request.glob) : undefined;
	const slicer = new TimeSlicer(signal);
	const files: GrepFileResult[] = [];
	const window: { path: string; search: Promise<GrepLine[] | undefined> }[] = [];
	let found = 0;
	let skipped = 0;
	// Once the matches wanted are found, a walk with `skip` goes on only to count the files it keeps unread.
	let counting = pattern.never;
	const takeOldest = async () => {
		const oldest = window.shift();
		if (oldest === undefined) return;
		const lines = await oldest.search;
		if (lines === undefined) return;
		files.push({ path: oldest.path, lines });
		found += countMatches(lines);
	};

	walk: for await (const batch of walkFiles(root, withoutUndefined({ operations, rules, filter }))) {
		for (const path of batch) {
			if (skip?.(path)) {
				skipped++;
				continue;
			}
			if (counting) continue;
			window.push({ path, search: searchFile(operations, `${root}/${path}`, pattern, context, maxMatches - found) });
			if (window.length >= CONCURRENCY) {
				await takeOldest();
				if (found >= maxMatches) {
					if (skip === undefined) break walk;
					counting = true;
				}
			}
			await slicer.pause();
		}
		if (counting) await slicer.pause();
	}
	while (window.length > 0 && found < maxMatches) await takeOldest();
	throwIfAborted(signal);
	return { files, skipped };
}
