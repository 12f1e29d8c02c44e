import { resolve } from "node:path";
import { errorText } from "@gantry/ai";
import { createLocalWorkspace, type Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import { sessionIdFor } from "../session/session-basics.js";
import { loadTranscript, Transcript } from "../session/transcript.js";
import { SessionCheckpoints } from "./session-checkpoints.js";
import type { CheckpointInfo, RewindOptions, RewindResult } from "./types.js";

/** The prompts a saved session can rewind to, as `session.listCheckpoints()` lists them. */
export function listTranscriptCheckpoints(sessionFile: string): CheckpointInfo[] {
	return checkpointsOf(sessionFile, undefined).list();
}

export interface RewindTranscriptOptions extends RewindOptions {
	/** The session's JSONL transcript. */
	sessionFile: string;
	/** The checkpoint id, or the prompt's number in `listTranscriptCheckpoints` (1 = the first). */
	checkpoint: string | number;
	/** The host whose folder the session worked in. Default: this machine, the folder the transcript names. */
	workspace?: Workspace;
	/** The home folder on this machine (where `~/.gantry/checkpoints` is). Default: the workspace's. */
	home?: string;
	/** Notices (checkpoints off, files left out). Default: none. */
	notify?: (message: string) => void;
}

/**
 * Rewinds a saved session that is not open (`gantry rewind`): the files, as `session.rewind` does, and the
 * conversation by a rewind line in its transcript, so the next `--resume` goes on from there. Throws
 * `CodingAgentError` (`invalid_transcript` for an unreadable file, `invalid_option` for an unknown checkpoint).
 */
export async function rewindTranscript(options: RewindTranscriptOptions): Promise<RewindResult> {
	const workspace = options.workspace ?? createLocalWorkspace(headerCwd(options.sessionFile));
	const checkpoints = checkpointsOf(options.sessionFile, {
		workspace,
		home: workspace.isLocal ? (options.home ?? workspace.home) : workspace.home,
		notify: options.notify ?? (() => {}),
	});
	const list = checkpoints.list();
	const id =
		typeof options.checkpoint === "number"
			? list[options.checkpoint - 1]?.id
			: (options.checkpoint as string | undefined);
	if (id === undefined) {
		throw new CodingAgentError(
			"invalid_option",
			`rewind: the session has ${list.length} prompt(s) to rewind to; ${String(options.checkpoint)} is not one of them`,
		);
	}
	const what: RewindOptions = {};
	if (options.code !== undefined) what.code = options.code;
	if (options.conversation !== undefined) what.conversation = options.conversation;
	try {
		return await checkpoints.rewind(id, what, () => {});
	} finally {
		checkpoints.close();
	}
}

function checkpointsOf(
	sessionFile: string,
	host: { workspace: Workspace; home: string; notify: (message: string) => void } | undefined,
): SessionCheckpoints {
	const path = resolve(sessionFile);
	let opened: ReturnType<typeof Transcript.open>;
	try {
		if (host === undefined) {
			const loaded = loadTranscript(path);
			return new SessionCheckpoints({
				enabled: false,
				workspace: createLocalWorkspace(loaded.header.cwd),
				home: "",
				sessionKey: "",
				history: loaded.checkpoints,
				notify: () => {},
			});
		}
		opened = Transcript.open(path, host.workspace.cwd);
	} catch (error) {
		throw new CodingAgentError("invalid_transcript", `Cannot read session file ${sessionFile}: ${errorText(error)}`, {
			cause: error,
		});
	}
	const history = opened.loaded?.checkpoints;
	return new SessionCheckpoints({
		enabled: true,
		// One rewind and done: nothing to gain from watching the folder.
		watch: false,
		...host,
		sessionKey: sessionIdFor(path),
		...(history === undefined ? {} : { history }),
		append: (entry) => opened.transcript.append(entry),
	});
}

function headerCwd(sessionFile: string): string {
	try {
		return loadTranscript(resolve(sessionFile)).header.cwd;
	} catch (error) {
		throw new CodingAgentError("invalid_transcript", `Cannot read session file ${sessionFile}: ${errorText(error)}`, {
			cause: error,
		});
	}
}
