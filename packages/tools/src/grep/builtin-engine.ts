import { basename } from "node:path";
import { withoutUndefined } from "@gantry/ai";
import { TimeSlicer, throwIfAborted } from "../abort.js";
import { createGlobFilter } from "../search/glob-filter.js";
import { IgnoreRules } from "../search/ignore-rules.js";
import { opensLocalFiles } from "../search/local-openers.js";
import type { SearchFileReader } from "../search/types.js";
import { type WalkOperations, walkFiles } from "../search/walk.js";
import { prefilterPool } from "../workspace/local/prefilter-pool.js";
import {
	NO_CANDIDATE,
	type PrefilterAnswer,
	type PrefilterProbe,
	TOO_LARGE,
} from "../workspace/local/prefilter-worker.js";
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

/** Files of one batch for a worker thread: enough to make a message worth its cost, few enough to keep order cheap. */
const CHUNK_FILES = 64;
/** Files searched on this thread before the worker threads are asked to start: small searches never need them. */
const SEQUENTIAL_FILES = 256;

/** The result of a file read in one piece: its lines, or undefined without a match or when binary. */
function searchWholeFile(
	bytes: Buffer,
	pattern: CompiledPattern,
	context: number,
	maxMatches: number,
): GrepLine[] | undefined {
	const searcher = new FileSearcher(pattern, context, maxMatches);
	searcher.push(bytes, true);
	// The NUL check costs a scan, so it waits until the file turns out to matter.
	return searcher.matchCount > 0 && bytes.indexOf(0) < 0 ? searcher.lines : undefined;
}

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
		// Small files (most of a source tree) fit the buffer: one run, no copies, no lines counted in vain.
		let filled = 0;
		let count = -1;
		while (filled < scratch.length && count !== 0) {
			count = await reader.read(scratch, filled, scratch.length - filled);
			filled += count;
		}
		if (count === 0) return searchWholeFile(scratch.subarray(0, filled), pattern, context, maxMatches);
		const searcher = new FileSearcher(pattern, context, maxMatches);
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

/** Files in flight, in path order: one searched on this thread, or a chunk handed to a worker thread. */
type Pending =
	| { path: string; search: Promise<GrepLine[] | undefined> }
	| { paths: string[]; answers: Promise<PrefilterAnswer[] | undefined> };

/** What a worker looks for first in a file: where `FileSearcher.push` looks first. */
function probeOf(pattern: CompiledPattern): PrefilterProbe {
	return pattern.literalBytes !== undefined
		? { bytes: pattern.literalBytes }
		: { source: pattern.scan.source, flags: pattern.scan.flags };
}

/**
 * The engine written in TypeScript, always available: walks the folder in path order with the
 * .gitignore rules, searches up to `CONCURRENCY` files at a time and stops as soon as the matches
 * wanted are found in order. On the local disk a large search also hands chunks of files to worker
 * threads, which read them and send back only those with a candidate match; this thread still walks and
 * runs every search that decides a result, in order. Throws for an invalid pattern and `Operation
 * aborted` on abort.
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
	const window: Pending[] = [];
	let found = 0;
	let skipped = 0;
	let walked = 0;
	// Once the matches wanted are found, a walk with `skip` goes on only to count the files it keeps unread.
	let counting = pattern.never;
	const parallel = prefilterPool.size > 0 && opensLocalFiles(operations.open);
	let pool: typeof prefilterPool | undefined;
	const probe = probeOf(pattern);
	let chunk: string[] = [];

	const add = (path: string, lines: GrepLine[] | undefined) => {
		if (lines === undefined) return;
		files.push({ path, lines });
		found += countMatches(lines);
	};
	const takeChunk = async (paths: string[], answers: PrefilterAnswer[] | undefined) => {
		for (const [index, path] of paths.entries()) {
			if (found >= maxMatches) break;
			const answer = answers?.[index] ?? TOO_LARGE;
			if (answer === NO_CANDIDATE) continue;
			const wanted = maxMatches - found;
			if (answer === TOO_LARGE) add(path, await searchFile(operations, `${root}/${path}`, pattern, context, wanted));
			else add(path, searchWholeFile(Buffer.from(answer), pattern, context, wanted));
		}
	};
	const takeOldest = async () => {
		const oldest = window.shift();
		if (oldest === undefined) return;
		if ("path" in oldest) add(oldest.path, await oldest.search);
		else await takeChunk(oldest.paths, await oldest.answers);
	};
	const inFlight = () => (pool?.ready ? 2 * pool.size : CONCURRENCY);
	const enqueue = async (item: Pending) => {
		window.push(item);
		while (window.length >= inFlight()) {
			await takeOldest();
			if (found >= maxMatches) {
				if (skip === undefined) return true;
				counting = true;
				return false;
			}
		}
		return false;
	};
	const sendChunk = () => {
		const paths = chunk;
		chunk = [];
		const absolute = paths.map((path) => `${root}/${path}`);
		const answers = pool!.prefilter(absolute, probe, SCRATCH_BYTES, signal);
		// Chunks left behind by an early end or an abort must not report their rejection as unhandled.
		answers.catch(() => undefined);
		return enqueue({ paths, answers });
	};

	try {
		walk: for await (const batch of walkFiles(root, withoutUndefined({ operations, rules, filter }))) {
			if (parallel && pool === undefined && walked >= SEQUENTIAL_FILES) {
				pool = prefilterPool;
				pool.acquire();
			}
			walked += batch.length;
			for (const path of batch) {
				if (skip?.(path)) {
					skipped++;
					continue;
				}
				if (counting) continue;
				if (pool?.ready) {
					chunk.push(path);
					if (chunk.length >= CHUNK_FILES && (await sendChunk())) break walk;
				} else {
					const search = searchFile(operations, `${root}/${path}`, pattern, context, maxMatches - found);
					if (await enqueue({ path, search })) break walk;
				}
				await slicer.pause();
			}
			if (counting) await slicer.pause();
		}
		if (chunk.length > 0 && !counting && found < maxMatches) await sendChunk();
		while (window.length > 0 && found < maxMatches) await takeOldest();
	} finally {
		pool?.release();
	}
	throwIfAborted(signal);
	return { files, skipped };
}
