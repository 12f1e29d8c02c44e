import type { ExtensionUI, Theme } from "@gantry/extensions";
import { localTime, type SessionSummary } from "../session-list.js";

/** How many sessions the picker offers (the newest); `gantry sessions` lists them all. */
export const PICKER_SESSIONS = 15;

/**
 * `gantry --resume` without an id: asks which of the folder's sessions to resume (newest first: id, last
 * activity, prompts, cost, first prompt). Resolves to the chosen one, or undefined when there is none or
 * the person declines (Esc): a new session starts then, and a line says so.
 */
export async function pickSession(
	sessions: readonly SessionSummary[],
	ui: ExtensionUI,
	theme: Theme,
): Promise<SessionSummary | undefined> {
	if (sessions.length === 0) {
		ui.notify("This folder has no saved sessions yet: a new one starts.");
		return undefined;
	}
	const offered = sessions.slice(0, PICKER_SESSIONS);
	const labels = offered.map(
		(session) =>
			`${session.shortId}  ${localTime(session.updatedAt)}  ${plural(session.turns, "turn")}  ${session.firstPrompt || "(no prompt yet)"}`,
	);
	const more =
		sessions.length > offered.length
			? `\nThe ${offered.length} newest of ${sessions.length}; gantry sessions lists all.`
			: "";
	const answer = await ui.select(`Resume which session of this folder?${more}`, labels);
	const chosen = answer === undefined ? undefined : offered[labels.indexOf(answer)];
	if (chosen === undefined) ui.notify(theme.muted("No session chosen: a new one starts."));
	return chosen;
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? "" : "s"}`;
}
