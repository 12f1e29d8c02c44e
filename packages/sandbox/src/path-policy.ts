import path from "node:path";
import picomatch from "picomatch";

/** One filesystem entry of a list: a path (covering everything beneath it) or a glob pattern. */
export interface PathEntry {
	/** Absolute path or absolute glob, as resolved from the settings. */
	path: string;
	/** Where the entry came from, for messages: `sandbox.filesystem.denyRead`, `the deny rule Read(.env)`, … */
	source: string;
	/** A literal path, never read as a pattern (the protected names are). */
	literal?: boolean;
	/** Decides coverage itself instead of `path` (still shown in messages). */
	covers?: (absolute: string) => boolean;
}

/** Why an access is refused, for the message: the path, and what would allow it. */
export interface PathRefusal {
	path: string;
	/** `outside the writable folders`, `denied by sandbox.filesystem.denyWrite (/x)`, … */
	why: string;
	/** How to allow it, when it can be allowed (`add it to sandbox.filesystem.allowWrite`). */
	fix?: string;
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

/** Whether `child` is `parent` or lies beneath it. */
export function isAtOrUnder(child: string, parent: string): boolean {
	if (parent === "/") return child.startsWith("/");
	return child === parent || child.startsWith(`${parent}/`);
}

/** A compiled entry: does it cover a path (the path itself or something above it matches)? */
interface CompiledEntry extends PathEntry {
	covers(absolute: string): boolean;
	/** Depth of the part without patterns, to tell which of two entries is more specific. */
	depth: number;
}

function compile(entry: PathEntry): CompiledEntry {
	if (entry.covers) return { ...entry, covers: entry.covers, depth: entry.path.split("/").length };
	const trimmed = entry.literal ? entry.path : entry.path.replace(/\/\*\*$/, "");
	if (entry.literal || !GLOB_CHARACTERS.test(trimmed)) {
		const fixed = path.resolve(trimmed);
		return { ...entry, depth: fixed.split("/").length, covers: (absolute) => isAtOrUnder(absolute, fixed) };
	}
	const matcher = picomatch(trimmed, { dot: true, posix: true });
	const base = picomatch.scan(trimmed).base;
	return {
		...entry,
		depth: base.split("/").length,
		covers(absolute) {
			for (let current = absolute; ; current = path.dirname(current)) {
				if (matcher(current)) return true;
				if (current === "/" || !isAtOrUnder(current, base || "/")) return false;
			}
		},
	};
}

/** The lists a sandboxed workspace holds its commands and its file tools to. */
export interface FilesystemLists {
	/** Folders that may be written: the working folder, the temp folder, `allowWrite`. */
	writable: PathEntry[];
	/** Never written, even inside a writable folder: `denyWrite`, Edit deny rules, the protected names. */
	denyWrite: PathEntry[];
	denyRead: PathEntry[];
	/** Read again inside a `denyRead` entry less specific than it. */
	allowRead: PathEntry[];
}

/** Decides reads and writes for the file tools exactly as the lists read for commands. */
export class PathPolicy {
	readonly #writable: CompiledEntry[];
	readonly #denyWrite: CompiledEntry[];
	readonly #denyRead: CompiledEntry[];
	readonly #allowRead: CompiledEntry[];

	constructor(lists: FilesystemLists) {
		this.#writable = lists.writable.map(compile);
		this.#denyWrite = lists.denyWrite.map(compile);
		this.#denyRead = lists.denyRead.map(compile);
		this.#allowRead = lists.allowRead.map(compile);
	}

	/** Why a write to `absolute` (links already followed) is refused, or undefined when it may be written. */
	refuseWrite(absolute: string): PathRefusal | undefined {
		const denied = this.#denyWrite.find((entry) => entry.covers(absolute));
		if (denied) {
			return {
				path: absolute,
				why: `it is protected by ${denied.source}${denied.literal ? "" : ` (${denied.path})`}`,
				...(denied.source.startsWith("sandbox.filesystem.denyWrite")
					? { fix: `remove ${denied.path} from sandbox.filesystem.denyWrite` }
					: {}),
			};
		}
		if (this.#writable.some((entry) => entry.covers(absolute))) return undefined;
		return {
			path: absolute,
			why: "it is outside the folders sandboxed commands may write (the working folder, the session's temp folder and sandbox.filesystem.allowWrite)",
			fix: `add ${path.dirname(absolute)} (or the file) to sandbox.filesystem.allowWrite`,
		};
	}

	/** Why a read of `absolute` (links already followed) is refused, or undefined when it may be read. */
	refuseRead(absolute: string): PathRefusal | undefined {
		for (const denied of this.#denyRead) {
			if (!denied.covers(absolute)) continue;
			const reopened = this.#allowRead.some((allowed) => allowed.depth > denied.depth && allowed.covers(absolute));
			if (reopened) continue;
			return {
				path: absolute,
				why: `it is hidden by ${denied.source} (${denied.path})`,
				fix: `add it to sandbox.filesystem.allowRead, or remove ${denied.path} from the list that hides it`,
			};
		}
		return undefined;
	}
}

/** The message of an access the sandbox refused: what, why, and the setting that would allow it. */
export function refusalMessage(action: "read" | "write", refusal: PathRefusal): string {
	const verb = action === "read" ? "Reading" : "Writing";
	return `${verb} ${refusal.path} is not allowed by the sandbox: ${refusal.why}.${refusal.fix ? ` To allow it, ${refusal.fix}.` : ""}`;
}
