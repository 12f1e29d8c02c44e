import { getApiKey } from "@gantry/ai";
import { toolProcessEnvironment } from "@gantry/tools";
import type { AgentSessionOptions } from "./session-options.js";

/**
 * The environment the session's tool processes start from (called at each spawn): this process's
 * environment without the variables whose names say they hold secrets, without any variable holding the
 * key the session itself sends (`apiKey`, or the one read for the model's provider, whatever variable it
 * sits in), and with the settings' `env` added back explicitly.
 */
export function sessionToolEnvironment(options: AgentSessionOptions): () => Record<string, string> {
	return () =>
		toolProcessEnvironment({
			secrets: [options.apiKey, getApiKey(options.model.provider)],
			...(options.settings?.env ? { add: options.settings.env } : {}),
		});
}
