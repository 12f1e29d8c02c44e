import { errorText } from "@gantry/ai";
import type { TextChange } from "../edit/apply.js";
import { applyChanges } from "../edit/apply.js";
import { unifiedDiff } from "../edit/diff.js";
import { decodeTextFile, type TextFile, toBuffer } from "../edit/text-file.js";
import { errorCode } from "../error-text.js";
import { assertUnchangedSinceSeen, type FileVersion } from "../file-versions.js";
import type { Workspace, WorkspaceFileSystem } from "../workspace/types.js";
import { type FileOutcome, versionOf } from "./commit.js";
import { planHunks } from "./hunks.js";
import type { ApplyPatchFileChange, PatchAction } from "./types.js";

/** A patch action with its paths resolved on the workspace. */
export type ResolvedAction = PatchAction & { absolute: string; moveAbsolute?: string };

/** What a patch would do, worked out in memory: per-file outcomes to write and per-section changes. */
export interface PatchPlan {
	outcomes: FileOutcome[];
	changes: (ApplyPatchFileChange & { absolute: string; moveAbsolute?: string })[];
	looseMatches: number;
}

/** One file as the patch sees it while it is worked out: what it held, and what it holds now. */
interface FileState {
	display: string;
	before: Buffer | undefined;
	current: Buffer | undefined;
	folder: boolean;
	/** Its size and modification time when it was read (undefined: it did not exist). */
	version: FileVersion | undefined;
}

/** The whole text of a file replaced by `text`, as a diff (new, deleted and overwritten files). */
function wholeFileDiff(oldText: string, newText: string, from: string, to: string): string {
	const change: TextChange = { start: 0, end: oldText.length, replacement: newText };
	return withHeaders(unifiedDiff(oldText, [change], { path: from }).diff, from, to);
}

function withHeaders(diff: string, from: string, to: string): string {
	if (from === to) return diff;
	const lines = diff.split("\n");
	lines[1] = `+++ ${to}`;
	return lines.join("\n");
}

/** The LF text of a file for a diff, or a note for one that is not text. */
function diffText(bytes: Buffer | undefined): string {
	if (bytes === undefined) return "";
	const file = decodeTextFile(bytes);
	if (typeof file === "string") return `(binary file, ${bytes.length} bytes)\n`;
	return file.lf;
}

/**
 * Works a patch out against the files as they are, without writing anything: every section is applied
 * in order to an in-memory copy (a later section sees what an earlier one did to the same file), so a
 * hunk that does not apply, a missing file or a folder is found before the disk is touched.
 *
 * @throws Error naming the file, the hunk and what was expected, when any section cannot be applied.
 */
export async function planPatch(workspace: Workspace, actions: readonly ResolvedAction[]): Promise<PatchPlan> {
	const { fs } = workspace;
	const states = new Map<string, FileState>();
	const stateOf = async (absolute: string, display: string): Promise<FileState> => {
		const known = states.get(absolute);
		if (known) return known;
		const state = await readState(fs, absolute, display);
		// The model based its hunks on what it read: a file changed since (by the user, a formatter) is refused.
		assertUnchangedSinceSeen(workspace, absolute, state.version, display);
		states.set(absolute, state);
		return state;
	};
	const changes: PatchPlan["changes"] = [];
	let looseMatches = 0;
	for (const action of actions) {
		const state = await stateOf(action.absolute, action.path);
		if (state.folder) throw new Error(`${action.path} is a folder; apply_patch adds, changes and deletes files only.`);
		if (action.type === "add") {
			const content = Buffer.from(action.content, "utf8");
			const diff = wholeFileDiff(diffText(state.current), action.content, action.path, action.path);
			state.current = content;
			changes.push({ path: action.path, kind: "add", diff, absolute: action.absolute });
			continue;
		}
		if (state.current === undefined) {
			const verb = action.type === "delete" ? "delete" : "update";
			throw new Error(
				`Cannot ${verb} ${action.path} (patch line ${action.line}): the file does not exist. Use '*** Add File:' to create a file.`,
			);
		}
		if (action.type === "delete") {
			const diff = wholeFileDiff(diffText(state.current), "", action.path, action.path);
			state.current = undefined;
			changes.push({ path: action.path, kind: "delete", diff, absolute: action.absolute });
			continue;
		}
		const file = textFileOf(state.current, action.path);
		const plan = planHunks(file.lf, action.chunks, action.path);
		looseMatches += plan.looseMatches;
		const data = applyChanges(file, plan.changes);
		const target = action.movePath ?? action.path;
		const diff = withHeaders(unifiedDiff(file.lf, plan.changes, { path: action.path }).diff, action.path, target);
		if (action.movePath === undefined || action.moveAbsolute === undefined || action.moveAbsolute === action.absolute) {
			state.current = data;
			changes.push({ path: action.path, kind: "update", diff, absolute: action.absolute });
			continue;
		}
		const destination = await stateOf(action.moveAbsolute, action.movePath);
		if (destination.folder)
			throw new Error(`Cannot move ${action.path} to ${action.movePath}: that is a folder; name the file to create.`);
		destination.current = data;
		state.current = undefined;
		changes.push({
			path: action.path,
			kind: "move",
			movePath: action.movePath,
			diff,
			absolute: action.absolute,
			moveAbsolute: action.moveAbsolute,
		});
	}
	const outcomes: FileOutcome[] = [];
	for (const [path, state] of states) {
		if (state.before === state.current) continue;
		if (state.before && state.current && state.before.equals(state.current)) continue;
		outcomes.push({ path, display: state.display, before: state.before, after: state.current, version: state.version });
	}
	return { outcomes, changes, looseMatches };
}

async function readState(fs: WorkspaceFileSystem, absolute: string, display: string): Promise<FileState> {
	let stats: Awaited<ReturnType<WorkspaceFileSystem["stat"]>>;
	try {
		stats = await fs.stat(absolute);
	} catch (error) {
		throw new Error(`Cannot read ${display}: ${errorCode(error) ?? errorText(error)}`);
	}
	if (stats === undefined) return { display, before: undefined, current: undefined, folder: false, version: undefined };
	if (stats.kind === "directory")
		return { display, before: undefined, current: undefined, folder: true, version: undefined };
	// Reading a named pipe would wait for a writer forever (and abort cannot end a pending read).
	if (stats.kind === "other")
		throw new Error(
			`${display} is not a regular file (a device, socket or named pipe); apply_patch only changes regular files.`,
		);
	let bytes: Buffer;
	try {
		bytes = toBuffer(await fs.readFile(absolute));
	} catch (error) {
		const code = errorCode(error);
		if (code === "EACCES" || code === "EPERM")
			throw new Error(`Cannot read ${display}: permission denied; nothing was written.`);
		throw new Error(`Cannot read ${display}: ${errorText(error)}`);
	}
	return { display, before: bytes, current: bytes, folder: false, version: versionOf(stats) };
}

function textFileOf(bytes: Buffer, display: string): TextFile {
	const file = decodeTextFile(bytes);
	if (file === "binary")
		throw new Error(`${display} looks like a binary file (${bytes.length} bytes); a patch only changes text files.`);
	if (file === "not-utf8")
		throw new Error(
			`${display} is not valid UTF-8 text; a patch only changes UTF-8 files (use write to replace it whole).`,
		);
	return file;
}
