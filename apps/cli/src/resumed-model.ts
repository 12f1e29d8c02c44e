import { readRecordedModel } from "@gantry/coding-agent";
import { CliError } from "./errors.js";
import type { ModelChoice, SelectedModel } from "./model-selection.js";

/**
 * The model of a run that opens `transcriptPath`: the one the session last switched to, where the command line
 * names no model (`--model` always wins; with `--provider`, only a recorded model of that provider is taken).
 * It beats the settings' defaults, which are for new sessions. A recorded model this run cannot reach (an
 * OpenAI-compatible server's, without `--base-url`) is reported through `notice` and the usual choice is made.
 * `select` is the run's selection (`selectModel` with the settings' defaults filled in).
 */
export function selectResumedModel(
	choice: ModelChoice,
	transcriptPath: string | undefined,
	select: (choice: ModelChoice) => SelectedModel,
	notice: (message: string) => void,
): SelectedModel {
	const recorded = transcriptPath === undefined ? undefined : readRecordedModel(transcriptPath);
	if (recorded === undefined || choice.model !== undefined) return select(choice);
	if (choice.provider !== undefined && choice.provider !== recorded.provider) return select(choice);
	try {
		return select({ ...choice, provider: recorded.provider, model: recorded.id });
	} catch (error) {
		if (!(error instanceof CliError)) throw error;
		const fallback = select(choice);
		notice(
			`the session was switched to ${recorded.provider}/${recorded.id}, which this run cannot use (${error.message}); it goes on with ${fallback.model.provider}/${fallback.model.id}`,
		);
		return fallback;
	}
}
