import { type PatchAction, parsePatch } from "@gantry/tools";

/**
 * The files a builtin's call reads and writes, from its arguments: what `Read(…)` and `Edit(…)` path rules
 * are judged on. A call may name several paths (a patch); each is judged.
 */
export interface CallPaths {
	/** Paths the call reads (as typed; resolved on the workspace later). */
	reads: string[];
	/** Paths the call creates, changes, moves or deletes. */
	writes: string[];
}

/** The paths of a call, or a sentence saying why they cannot be told (the rules on paths then cannot be checked). */
export type CallPathsResult = CallPaths | { unknown: string };

/** Turns one builtin's arguments into the paths it touches. Must not throw; may return `{ unknown }`. */
export type CallPathsResolver = (input: Record<string, unknown>) => CallPathsResult;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const orHere = (value: unknown): string => {
	const path = text(value);
	return path === undefined || path.trim() === "" ? "." : path;
};

/** A missing or non-text path: the tool's own validation refuses it, so nothing is touched. */
const paths = (reads: (string | undefined)[], writes: (string | undefined)[]): CallPaths => ({
	reads: reads.filter((path): path is string => path !== undefined),
	writes: writes.filter((path): path is string => path !== undefined),
});

const resolvers = new Map<string, CallPathsResolver>([
	["read", (input) => paths([text(input.path)], [])],
	["grep", (input) => paths([orHere(input.path)], [])],
	["find", (input) => paths([orHere(input.path)], [])],
	["ls", (input) => paths([orHere(input.path)], [])],
	// An edit shows the file's lines around the change (and says whether the old text is there): it reads it too.
	["edit", (input) => paths([text(input.path)], [text(input.path)])],
	["write", (input) => paths([], [text(input.path)])],
	["apply_patch", (input) => patchPaths(input.input)],
]);

/**
 * The files a patch touches, read with the tool's own parser (`parsePatch`), so the rules judge exactly the
 * paths the tool will write: an added file is written; a deleted or updated one is read too (its diff shows
 * its lines); a moved one also writes its new path. A patch the parser refuses changes nothing.
 */
function patchPaths(text: unknown): CallPathsResult {
	let actions: PatchAction[];
	try {
		actions = parsePatch(typeof text === "string" ? text : "");
	} catch {
		return { reads: [], writes: [] };
	}
	const reads: string[] = [];
	const writes: string[] = [];
	for (const action of actions) {
		writes.push(action.path);
		if (action.type !== "add") reads.push(action.path);
		if (action.type === "update" && action.movePath !== undefined) writes.push(action.movePath);
	}
	return { reads, writes };
}

/** The paths a builtin's call touches; undefined for a tool that is not a builtin Gantry knows the paths of. */
export function builtinCallPaths(name: string, input: Record<string, unknown>): CallPathsResult | undefined {
	const resolver = resolvers.get(name);
	if (resolver === undefined) return undefined;
	try {
		return resolver(input);
	} catch (error) {
		return { unknown: `its paths could not be read from the arguments (${(error as Error).message})` };
	}
}
