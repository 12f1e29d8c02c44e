import type { PermissionPolicyOptions } from "@gantry/coding-agent";
import type { ExtensionUI } from "@gantry/extensions";
import { projectSettingsPath } from "./permission-settings.js";
import type { SessionSetup } from "./session-factory.js";
import { appendAllowRules } from "./settings-writer.js";

/**
 * How interactive mode keeps "always" answers: their rules are added to `shown` (the rules `/tools`
 * lists). On this machine the answer says "in this project" and the rules are also appended to the
 * project's `.gantry/settings.json` `permissions.allow`, so later runs in the folder allow them too; when
 * that file cannot be changed safely, the error reaches the policy, which keeps the rules for this
 * session only and says why. Over SSH the working folder is on the other host, so nothing is saved.
 */
export function keepAlwaysAnswers(
	setup: Pick<SessionSetup, "cwd" | "sessionOptions">,
	ui: ExtensionUI,
	shown: string[],
): Pick<PermissionPolicyOptions, "onAlwaysAllow" | "alwaysAllowScope"> {
	const show = (rules: string[]): void => {
		shown.push(...rules.filter((rule) => !shown.includes(rule)));
	};
	if (setup.sessionOptions?.workspace?.isLocal === false) return { onAlwaysAllow: show };
	return {
		alwaysAllowScope: "in this project",
		onAlwaysAllow: async (rules) => {
			show(rules);
			const path = projectSettingsPath(setup.cwd);
			const added = await appendAllowRules(path, rules);
			if (added.length > 0) ui.notify(`Saved ${added.join(", ")} to ${path} (permissions.allow).`);
		},
	};
}
