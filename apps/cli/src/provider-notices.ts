import { type Model, modelDeprecationWarning, onProviderWarning, reportProviderWarning } from "@gantry/ai";

/**
 * Sends provider warnings (a deprecated model, a provider SDK's own warning) to `notice` for a run, each
 * once: the model's deprecation, when its catalogue entry has one, right away (so it shows under the
 * interactive banner too, or as print mode's first `gantry:` line), the others when a request raises
 * them. Returns the function that stops it.
 */
export function noticeProviderWarnings(model: Model, notice: (message: string) => void): () => void {
	const stop = onProviderWarning((warning) => notice(warning.message));
	const deprecation = modelDeprecationWarning(model);
	if (deprecation) reportProviderWarning(deprecation);
	return stop;
}
