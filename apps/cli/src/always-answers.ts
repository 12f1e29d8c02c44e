import type { PermissionPolicyOptions } from "@gantry/coding-agent";
import type { ExtensionUI } from "@gantry/extensions";
import { projectSettingsPath } from "./permission-settings.js";
import { appendAllowRules } from "./settings-writer.js";

/**
 * How interactive mode keeps "always" answers: the answer says "in this project"; its rules are added to
 * `shown` (the rules `/tools` lists) and appended to the project's `.gantry/settings.json`
 * `permissions.allow`, so later runs in the folder allow them too. When that file cannot be changed
 * safely, the error reaches the policy, which keeps the rules for this session only and says why.
 */
export function keepAlwaysAnswers(
	cwd: string,
	ui: ExtensionUI,
	shown: string[],
): Pick<PermissionPolicyOptions, "onAlwaysAllow" | "alwaysAllowScope"> {
	return {
		alwaysAllowScope: "in this project",
		onAlwaysAllow: async (rules) => {
			shown.push(...rules.filter((rule) => !shown.includes(rule)));
			const path = projectSettingsPath(cwd);
			const added = await appendAllowRules(path, rules);
			if (added.length > 0) ui.notify(`Saved ${added.join(", ")} to ${path} (permissions.allow).`);
		},
	};
}
