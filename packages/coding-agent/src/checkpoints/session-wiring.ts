import type { Workspace } from "@gantry/tools";
import type { AgentSessionOptions } from "../session/session-options.js";
import type { LoadedTranscript, Transcript } from "../session/transcript.js";
import { SessionCheckpoints } from "./session-checkpoints.js";

/**
 * The session's checkpoints, from its options: on unless `checkpoints: false`, recording `workspace` (the
 * one the session was given, not a sandbox around it) under the home folder of that host (`options.home`
 * on this machine), continuing what a resumed transcript recorded.
 */
export function createSessionCheckpoints(
	options: AgentSessionOptions,
	/** `checkpointWorkspace` when given, else `workspace`. */
	environment: { workspace: Workspace; checkpointWorkspace?: Workspace },
	sessionId: string,
	transcript: { transcript: Transcript; loaded?: LoadedTranscript } | undefined,
	notify: (message: string) => void,
): SessionCheckpoints {
	const workspace = environment.checkpointWorkspace ?? environment.workspace;
	const history = transcript?.loaded?.checkpoints;
	return new SessionCheckpoints({
		enabled: options.checkpoints !== false,
		workspace,
		home: workspace.isLocal ? (options.home ?? workspace.home) : workspace.home,
		sessionKey: sessionId,
		...(history === undefined ? {} : { history }),
		...(transcript === undefined ? {} : { append: (entry) => transcript.transcript.append(entry) }),
		notify,
	});
}
