import { CodingAgentError, type GantrySettings, loadSettings } from "@gantry/coding-agent";
import type { Workspace } from "@gantry/tools";
import { CliError } from "./errors.js";
import type { ModelChoice } from "./model-selection.js";

/**
 * The model options of a run with the settings' defaults filled in: `model` and `provider` of
 * `~/.gantry/settings.json`, `.gantry/settings.json` and `.gantry/settings.local.json` (merged, the later
 * file winning) apply where the command line says nothing. A flag always wins, and a settings value that
 * would contradict one is dropped: with `--model`, the settings' provider is not used (the model names its
 * own); with `--provider`, the settings' model is used only when the settings name that same provider.
 */
export function withSettingsDefaults(
	choice: ModelChoice,
	settings: Pick<GantrySettings, "model" | "provider">,
): ModelChoice {
	const merged: ModelChoice = { ...choice };
	if (choice.provider === undefined && choice.model === undefined && settings.provider !== undefined) {
		merged.provider = settings.provider;
	}
	const sameProvider = choice.provider === undefined || choice.provider === settings.provider;
	if (choice.model === undefined && settings.model !== undefined && sameProvider) merged.model = settings.model;
	return merged;
}

/**
 * Reads the settings files of `cwd` (over `workspace` when remote) for their `model` and `provider`. A
 * malformed file stops the run with its name (`session_failed`), as it would when the session reads it.
 */
export async function settingsModelDefaults(
	cwd: string,
	workspace?: Workspace,
): Promise<Pick<GantrySettings, "model" | "provider">> {
	try {
		const { settings } = await loadSettings({ cwd, ...(workspace === undefined ? {} : { workspace }) });
		return {
			...(settings.model === undefined ? {} : { model: settings.model }),
			...(settings.provider === undefined ? {} : { provider: settings.provider }),
		};
	} catch (error) {
		if (error instanceof CodingAgentError) throw new CliError("session_failed", error.message, { cause: error });
		throw error;
	}
}
