import { basename, dirname } from "node:path";
import { GantryError } from "@gantry/ai";
import { throwIfAborted } from "../abort.js";
import { createGlobFilter } from "../search/glob-filter.js";
import { PreloadedIgnoreFiles } from "../search/ignore-preload.js";
import { IgnoreRules } from "../search/ignore-rules.js";
import { IgnoreScopes } from "../search/ignore-scopes.js";
import { searchOperationsOn } from "../search/workspace-search.js";
import type { WorkspaceFileSystem, WorkspaceProcesses } from "../workspace/types.js";
import {
	comparePaths,
	countMatches,
	type GrepEngineRequest,
	type GrepEngineResult,
	type GrepFileResult,
} from "./engine.js";
import type { GrepLine } from "./file-searcher.js";
import { type RipgrepExit, runRipgrep } from "./ripgrep-process.js";

/** rg refused the request (most often a pattern its regex syntax rejects); `message` is rg's explanation. */
export class RipgrepRejectedError extends GantryError<"ripgrep_rejected"> {
	override readonly name = "RipgrepRejectedError";
	constructor(message: string) {
		super("ripgrep_rejected", message);
	}
}

/** Where rg runs: the workspace's processes, the `rg` found there, and its files (for the .gitignore check). */
export interface RipgrepHost {
	processes: WorkspaceProcesses;
	executable: string;
	fs: WorkspaceFileSystem;
}

/** Most characters of file paths handed to one rg run. */
const MAX_ARGUMENT_CHARS = 64 * 1024;

/**
 * Most bytes of pattern and glob together that the ripgrep engine hands to rg on its command line. The
 * host caps the command line (Linux: 128 KiB per argument; over SSH the whole command, file paths
 * included, is one argument of the remote shell), and past the cap rg does not start at all, so a
 * longer pattern is turned away before spawning instead.
 */
export const MAX_RIPGREP_PATTERN_BYTES = 32 * 1024;

/** Why rg cannot take the request's pattern and glob on its command line, or undefined when it can. */
export function ripgrepArgumentProblem(request: Pick<GrepEngineRequest, "pattern" | "glob">): string | undefined {
	const patternBytes = Buffer.byteLength(request.pattern, "utf8");
	const globBytes = request.glob === undefined ? 0 : Buffer.byteLength(request.glob, "utf8");
	if (patternBytes + globBytes <= MAX_RIPGREP_PATTERN_BYTES) return undefined;
	const size = globBytes === 0 ? `${patternBytes} bytes` : `${patternBytes} bytes, and the glob ${globBytes}`;
	return (
		`pattern is too long for the ripgrep engine: ${size}, while rg's command line takes at most ` +
		`${MAX_RIPGREP_PATTERN_BYTES} bytes of pattern and glob together. Use a shorter pattern (a distinctive ` +
		'part of the text), split an alternation into several searches, or use engine "builtin", which has no such limit.'
	);
}

/** Flags shared by both rg runs: nothing from the user's rg config, raw bytes, CRLF-aware line ends. */
function matchingFlags(request: GrepEngineRequest): string[] {
	const flags = ["--no-config", "--no-messages", "--no-mmap", "--encoding", "none", "--crlf"];
	if (request.ignoreCase) flags.push("--ignore-case");
	if (request.literal) flags.push("--fixed-strings");
	return flags;
}

interface RgText {
	text?: string;
	bytes?: string;
}

interface RgMessage {
	type: string;
	data: { path?: RgText; lines?: RgText; line_number?: number; binary_offset?: number | null };
}

function decode(value: RgText | undefined): string {
	if (value === undefined) return "";
	if (value.text !== undefined) return value.text;
	return Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

function rejectionOf(exit: { code: number | null; stderr: string }): RipgrepRejectedError {
	const text = exit.stderr.trim() || `rg exited with code ${exit.code}`;
	return new RipgrepRejectedError(text);
}

/** Flags for rg's own walk: .gitignore files (also outside a repository), hidden files, `.git` skipped. */
function walkFlags(request: GrepEngineRequest): string[] {
	const flags = ["--hidden", "--no-require-git", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global"];
	flags.push("--glob", "!.git");
	if (request.glob) flags.push("--glob", request.glob);
	return flags;
}

/** Most bytes of JSON the one-pass search may produce before it gives way to the two-pass one. */
const ONE_PASS_OUTPUT_BYTES = 4 * 1024 * 1024;

class OutputTooLarge extends Error {}

/** Collects rg's `--json` messages into lines per file; files rg found binary are dropped. */
class JsonResults {
	readonly files = new Map<string, GrepLine[]>();
	private partial: Buffer | undefined;
	bytes = 0;

	push(chunk: Buffer): void {
		this.bytes += chunk.length;
		const data = this.partial === undefined ? chunk : Buffer.concat([this.partial, chunk]);
		let start = 0;
		let newline = data.indexOf(10);
		while (newline >= 0) {
			this.handle(data.toString("utf8", start, newline));
			start = newline + 1;
			newline = data.indexOf(10, start);
		}
		this.partial = start < data.length ? data.subarray(start) : undefined;
	}

	finish(): void {
		if (this.partial !== undefined) this.handle(this.partial.toString("utf8"));
		this.partial = undefined;
	}

	private handle(json: string): void {
		if (json === "") return;
		const message = JSON.parse(json) as RgMessage;
		if (message.type !== "match" && message.type !== "context" && message.type !== "end") return;
		let path = decode(message.data.path);
		if (path.startsWith("./")) path = path.slice(2);
		if (message.type === "end") {
			if (message.data.binary_offset !== null && message.data.binary_offset !== undefined) this.files.delete(path);
			return;
		}
		let text = decode(message.data.lines);
		if (text.endsWith("\n")) text = text.slice(0, -1);
		let lines = this.files.get(path);
		if (lines === undefined) {
			lines = [];
			this.files.set(path, lines);
		}
		lines.push({ line: message.data.line_number ?? 0, text, match: message.type === "match" });
	}
}

/**
 * Runs rg `--json` with `targets` (files, or "." for the walk) in `cwd`. Resolves to the lines per
 * file, or undefined when the output passed `outputLimit` (rg is then killed).
 */
async function searchJson(
	rg: RipgrepHost,
	request: GrepEngineRequest,
	cwd: string,
	targets: readonly string[],
	options: { maxMatches: number; walk: boolean; outputLimit?: number },
): Promise<Map<string, GrepLine[]> | undefined> {
	const args = [...matchingFlags(request), ...(options.walk ? walkFlags(request) : []), "--json"];
	args.push("--max-count", String(options.maxMatches));
	if (request.context > 0) args.push("--context", String(request.context));
	args.push("--regexp", request.pattern, "--", ...targets);
	const results = new JsonResults();
	const { outputLimit } = options;
	let exit: RipgrepExit;
	try {
		exit = await runRipgrep(rg.processes, rg.executable, args, {
			cwd,
			signal: request.signal,
			onOutput: (chunk) => {
				results.push(chunk);
				if (outputLimit !== undefined && results.bytes > outputLimit) throw new OutputTooLarge();
			},
		});
	} catch (error) {
		if (error instanceof OutputTooLarge) return undefined;
		throw error;
	}
	results.finish();
	if (exit.code === 2 && results.bytes === 0 && exit.stderr.trim() !== "") throw rejectionOf(exit);
	return results.files;
}

/** Runs rg with `args` (ending in `--null` output of paths) in the request's root; the paths it printed, without `./`. */
async function listPaths(rg: RipgrepHost, request: GrepEngineRequest, args: string[]): Promise<string[]> {
	const chunks: Buffer[] = [];
	const exit = await runRipgrep(rg.processes, rg.executable, args, {
		cwd: request.root,
		signal: request.signal,
		onOutput: (chunk) => chunks.push(chunk),
	});
	const output = Buffer.concat(chunks).toString("utf8");
	if (exit.code === 2 && output === "") throw rejectionOf(exit);
	const paths: string[] = [];
	for (const entry of output.split("\0")) {
		if (entry === "") continue;
		paths.push(entry.startsWith("./") ? entry.slice(2) : entry);
	}
	return paths;
}

/** Lists the files with at least one match (rg stops reading each file at its first match), in path order. */
async function listMatchingFiles(rg: RipgrepHost, request: GrepEngineRequest): Promise<string[]> {
	const args = [...matchingFlags(request), ...walkFlags(request), "--files-with-matches", "--null"];
	args.push("--regexp", request.pattern, "--", ".");
	return (await listPaths(rg, request, args)).sort(comparePaths);
}

/**
 * The ripgrep engine. One pass first: rg searches the tree (in parallel) and reports every match, up
 * to the wanted count per file. When that output grows past `ONE_PASS_OUTPUT_BYTES` (a pattern that
 * matches nearly everything), rg is killed and two passes follow: rg lists the files with a match
 * (stopping at each file's first match), and only as many of them as the limit needs, in path order,
 * are searched again for their lines. Either way the paths are sorted and checked against the same
 * .gitignore rules and glob as the built-in engine (rg lets a `--glob` override .gitignore; this tool
 * does not). Throws `RipgrepRejectedError` when rg refuses the pattern, `Operation aborted` on abort
 * (rg is killed).
 */
export async function runRipgrepEngine(rg: RipgrepHost, request: GrepEngineRequest): Promise<GrepEngineResult> {
	const { root, maxMatches, signal } = request;
	throwIfAborted(signal);
	if (request.isFile) {
		const name = basename(root);
		if (request.skip?.(name)) return { files: [], skipped: 1 };
		const results = await searchJson(rg, request, dirname(root), [name], { maxMatches, walk: false });
		const lines = results?.get(name);
		return { files: lines && countMatches(lines) > 0 ? [{ path: name, lines }] : [], skipped: 0 };
	}

	const reader = searchOperationsOn(rg.fs);
	const ignoreFiles = new PreloadedIgnoreFiles(root, reader, request.gitUser);
	const filter = request.glob ? createGlobFilter(request.glob) : undefined;
	const { skip } = request;
	// Read while rg runs: its first step is one stat, then it waits on the reader like everything else here.
	const scopesReady = IgnoreRules.forRoot(root, reader, request.gitUser).then(
		(rules) => new IgnoreScopes(root, rules, ignoreFiles),
	);
	const searched = async (path: string) => {
		if (filter && !filter.includes(path)) return false;
		const [scopes] = await Promise.all([scopesReady, ignoreFiles.loadFor(path)]);
		return !scopes.ignores(path, false);
	};
	// Paths are checked once rg is done, in path order and only as far as the limit needs. Checking each path as
	// rg reports it (as this engine once did) reads the ignore files of every folder holding a match, on the
	// CPU that rg's own threads are using: measured 830 file-system calls per search of the benchmark tree,
	// against 330 for the paths the first 100 matches need.
	const keep = (path: string) => (skip?.(path) ? Promise.resolve(false) : searched(path));

	const onePassRun = searchJson(rg, request, root, ["."], {
		maxMatches,
		walk: true,
		outputLimit: ONE_PASS_OUTPUT_BYTES,
	});
	onePassRun.catch(() => undefined);
	// rg reads the files `skip` covers too (its output for them is dropped): the count comes from its walk.
	const skippedCount = skip === undefined ? Promise.resolve(0) : countSkipped(rg, request, skip, searched);
	skippedCount.catch(() => undefined);
	const files: GrepFileResult[] = [];
	let found = 0;
	const add = (path: string, lines: GrepLine[] | undefined) => {
		if (lines === undefined) return;
		const count = countMatches(lines);
		if (count === 0) return;
		lines.sort((left, right) => left.line - right.line);
		files.push({ path, lines });
		found += count;
	};

	const onePass = await onePassRun;
	if (onePass !== undefined) {
		for (const path of [...onePass.keys()].sort(comparePaths)) {
			if (found >= maxMatches) break;
			if (await keep(path)) add(path, onePass.get(path));
		}
		throwIfAborted(signal);
		return { files, skipped: await skippedCount };
	}

	const candidates = await listMatchingFiles(rg, request);
	let next = 0;
	while (found < maxMatches && next < candidates.length) {
		const wanted = maxMatches - found;
		const batch: string[] = [];
		let characters = 0;
		while (batch.length < wanted && characters < MAX_ARGUMENT_CHARS) {
			const path = candidates[next];
			if (path === undefined) break;
			next++;
			if (!(await keep(path))) continue;
			batch.push(path);
			characters += path.length + 1;
		}
		if (batch.length === 0) break;
		const results = await searchJson(rg, request, root, batch, { maxMatches: wanted, walk: false });
		for (const path of batch) add(path, results?.get(path));
	}
	throwIfAborted(signal);
	return { files, skipped: await skippedCount };
}

/**
 * How many files of rg's walk (`--files`, the same walk flags and glob) that the tool's own .gitignore and
 * glob check keeps (`searched`) `skip` covers: the number the built-in engine counts on its walk.
 */
async function countSkipped(
	rg: RipgrepHost,
	request: GrepEngineRequest,
	skip: (path: string) => boolean,
	searched: (path: string) => Promise<boolean>,
): Promise<number> {
	const args = ["--no-config", "--no-messages", ...walkFlags(request), "--files", "--null", "--", "."];
	let skipped = 0;
	for (const path of await listPaths(rg, request, args)) if (skip(path) && (await searched(path))) skipped++;
	return skipped;
}
