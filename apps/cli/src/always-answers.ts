import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { PermissionPolicyOptions } from "@gantry/coding-agent";
import type { ExtensionUI } from "@gantry/extensions";
import { ignoreInFolder } from "./git-ignore.js";
import { localSettingsPath } from "./permission-settings.js";
import type { SessionSetup } from "./session-factory.js";
import { appendAllowRules } from "./settings-writer.js";

async function exists(path: string): Promise<boolean> {
	try {
		await lstat(path);
		return true;
	} catch {
		return false;
	}
}

/**
 * How interactive mode keeps "always" answers: their rules are added to `shown` (the rules `/tools`
 * lists). On this machine the answer says "in this project" and the rules are also appended to the
 * project's personal `.gantry/settings.local.json` `permissions.allow` (not the shared, committed
 * `.gantry/settings.json`), so later runs in the folder allow them too. When that file is created,
 * `.gantry/.gitignore` gets a `settings.local.json` line so git leaves it out (a failure there is a
 * warning; the rules stay saved). When the settings file cannot be changed safely, the error reaches the
 * policy, which keeps the rules for this session only and says why. Over SSH the working folder is on
 * the other host, so nothing is saved.
 */
export function keepAlwaysAnswers(
	setup: Pick<SessionSetup, "cwd" | "sessionOptions">,
	ui: ExtensionUI,
	shown: string[],
	trusted = true,
): Pick<PermissionPolicyOptions, "onAlwaysAllow" | "alwaysAllowScope"> {
	const show = (rules: string[]): void => {
		shown.push(...rules.filter((rule) => !shown.includes(rule)));
	};
	if (setup.sessionOptions?.workspace?.isLocal === false) return { onAlwaysAllow: show };
	return {
		alwaysAllowScope: "in this project",
		onAlwaysAllow: async (rules) => {
			show(rules);
			const path = localSettingsPath(setup.cwd);
			await refuseLinkOut(setup.cwd, path);
			const isNew = !(await exists(path));
			const added = await appendAllowRules(path, rules);
			if (added.length === 0) return;
			const later = trusted
				? ""
				: " It holds for this session; later runs use it once the folder is trusted (gantry trust).";
			ui.notify(`Saved ${added.join(", ")} to ${path} (permissions.allow).${later}`);
			if (isNew) await ignoreLocalSettings(path, ui);
		},
	};
}

/**
 * A cloned project could make its settings.local.json (or its .gantry) a link to another file, say
 * ~/.gantry/settings.json: an "always" answer would then allow the command everywhere. Such a file is
 * not written (the answer still holds for the session).
 */
async function refuseLinkOut(cwd: string, path: string): Promise<void> {
	const [folder, file] = await Promise.all([
		realpath(cwd),
		realpath(path).catch(() =>
			realpath(dirname(path))
				.then((parent) => join(parent, basename(path)))
				.catch(() => undefined),
		),
	]);
	if (file === undefined) return;
	const inside = relative(folder, file);
	if (inside.startsWith("..") || isAbsolute(inside)) {
		throw new Error(`${path} leads out of the project (to ${file}), so the rule was not saved there`);
	}
}

async function ignoreLocalSettings(path: string, ui: ExtensionUI): Promise<void> {
	const name = basename(path);
	const gitignore = join(dirname(path), ".gitignore");
	try {
		const change = await ignoreInFolder(dirname(path), name);
		if (change === "created") ui.notify(`Created ${gitignore} (${name}), so git leaves your rules out.`);
		else if (change === "added") ui.notify(`Added ${name} to ${gitignore}, so git leaves your rules out.`);
	} catch (error) {
		ui.notify(
			`${gitignore} could not be changed (${(error as Error).message}): add the line ${name} to it yourself, or git may commit your rules. They are saved.`,
			"warning",
		);
	}
}
