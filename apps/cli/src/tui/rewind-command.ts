import { errorText } from "@gantry/ai";
import type { AgentSession, CheckpointInfo, RewindOptions, RewindResult } from "@gantry/coding-agent";
import type { ExtensionUI, Theme } from "@gantry/extensions";

/** The three ways to rewind, as `/rewind` offers them. */
export const REWIND_CHOICES: readonly { label: string; what: RewindOptions }[] = [
	{ label: "Code and conversation", what: { code: true, conversation: true } },
	{ label: "Conversation only", what: { conversation: true } },
	{ label: "Code only", what: { code: true } },
];

/** Files named on one line of the list before `…and N more`. */
const FILES_SHOWN = 4;

/** One line for a prompt of the list: its number, its first line and the files changed from it on. */
export function checkpointLabel(checkpoint: CheckpointInfo, index: number): string {
	const line = checkpoint.prompt.trim().split("\n")[0] ?? "";
	const prompt = line.length > 60 ? `${line.slice(0, 59)}…` : line;
	const files = checkpoint.files;
	const named = files.slice(0, FILES_SHOWN).join(", ");
	const more = files.length > FILES_SHOWN ? ` and ${files.length - FILES_SHOWN} more` : "";
	return `${index + 1}. ${prompt || "(empty prompt)"}  ·  ${files.length === 0 ? "no file changes" : `${named}${more}`}`;
}

/** What a rewind did, as lines for the screen or the terminal. */
export function rewindResultLines(
	result: RewindResult,
	what: RewindOptions,
	theme: Pick<Theme, "success" | "warning" | "muted">,
): string[] {
	const lines: string[] = [];
	if (what.code) {
		const changed = result.restored.length + result.removed.length;
		lines.push(theme.success(changed === 0 ? "No file needed to change." : `Files rewound: ${changed}.`));
		for (const path of result.restored) lines.push(theme.muted(`  restored ${path}`));
		for (const path of result.removed) lines.push(theme.muted(`  removed  ${path}`));
		for (const path of result.conflicts ?? []) {
			lines.push(theme.warning(`  kept     ${path} (changed outside the session since: left as it is)`));
		}
	}
	if (what.conversation) lines.push(theme.success("The conversation goes on from before that prompt."));
	return lines;
}

/**
 * `/rewind` (or Esc Esc at an empty prompt): lists the session's prompts with the files each changed from
 * it on, asks which and what to rewind, and rewinds. Resolves to the prompt's text when the conversation
 * was rewound (the editor offers it again), else undefined.
 */
export async function rewindInteractively(
	session: AgentSession,
	ui: ExtensionUI,
	theme: Theme,
	print: (lines: string[]) => void,
): Promise<string | undefined> {
	const checkpoints = session.listCheckpoints();
	if (checkpoints.length === 0) {
		print([theme.muted("No prompt to rewind to yet.")]);
		return undefined;
	}
	const labels = checkpoints.map(checkpointLabel);
	const chosen = await ui.select("Rewind to before which prompt?", labels.slice().reverse());
	const checkpoint = chosen === undefined ? undefined : checkpoints[labels.indexOf(chosen)];
	if (checkpoint === undefined) {
		print([theme.muted("Nothing rewound.")]);
		return undefined;
	}
	const how = await ui.select(
		`Rewind what to before "${checkpointLabel(checkpoint, checkpoints.indexOf(checkpoint))}"?`,
		REWIND_CHOICES.map((choice) => choice.label),
	);
	const what = REWIND_CHOICES.find((choice) => choice.label === how)?.what;
	if (what === undefined) {
		print([theme.muted("Nothing rewound.")]);
		return undefined;
	}
	try {
		const result = await session.rewind(checkpoint.id, what);
		print(rewindResultLines(result, what, theme));
		return what.conversation ? checkpoint.prompt : undefined;
	} catch (error) {
		print([theme.error(errorText(error))]);
		return undefined;
	}
}
