import { homedir } from "node:os";
import type { Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import { mergeSettings } from "./merge-settings.js";
import { isTrustedKey, trustKeyOf } from "./project-trust.js";
import { realLocation, type SettingsFile, settingsFilesOf } from "./settings-files.js";
import { splitByTrust } from "./trust-filter.js";
import type { GantrySettings, LoadedSettings, RuleSource } from "./types.js";
import { checkSettings } from "./validate-settings.js";

/** Options of `loadSettings`. */
export interface LoadSettingsOptions {
	/** The project folder (on the workspace's host when `workspace` is remote). */
	cwd: string;
	/** Where `.gantry/settings.json` and `.gantry/trust.json` of the user are. Default: the user's home folder. */
	home?: string;
	/**
	 * The workspace the project is on: a remote one's project files are read over it (named
	 * `user@host:port:/path` in messages) and its trust is kept under the host and the path there. Default
	 * this machine.
	 */
	workspace?: Workspace;
	/**
	 * Tool names known besides Gantry's and Claude Code's (extensions' tools), so a rule naming one is not
	 * taken for a misspelling of a builtin. Default: none.
	 */
	knownTools?: readonly string[];
}

async function readSettingsFile(file: SettingsFile, options: LoadSettingsOptions) {
	const content = await file.read();
	if ("missing" in content) return undefined;
	if ("refused" in content) return { refused: `${file.where}: ${content.refused}` };
	let value: unknown;
	try {
		value = JSON.parse(content.text);
	} catch (error) {
		throw new CodingAgentError("invalid_option", `${file.where}: is not valid JSON (${(error as Error).message})`, {
			cause: error,
		});
	}
	return checkSettings(file.where, value, options);
}

/**
 * Reads and merges a folder's settings, as the CLI and `AgentSessionOptions.settings` use them:
 * `~/.gantry/settings.json` < `<cwd>/.gantry/settings.json` < `<cwd>/.gantry/settings.local.json` (lists
 * concatenated, so every file's rules hold; single values from the last file that sets them). Claude Code's
 * settings.json shape: a Claude Code key Gantry does not use, a rule for a Claude Code tool Gantry lacks and
 * a hook type it does not run are listed in `ignored`. Until the folder is trusted (`trustProject`), its own
 * two files only add deny rules and tightening (see `splitByTrust`); what they asked for and did not get is
 * listed in `ignored` too. Project files that lead out of the folder (links) are not read.
 *
 * Throws `CodingAgentError` `invalid_option` naming the file for invalid JSON, a key neither Gantry nor
 * Claude Code defines (with the key meant), a value of the wrong type, a malformed rule, or a rule naming a
 * near miss of a known tool (`Raed(**\/.env)`: "did you mean Read?").
 *
 * @example
 * const loaded = await loadSettings({ cwd: process.cwd() });
 * const session = await createAgentSession({ cwd: process.cwd(), model, settings: loaded.settings });
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
	const home = options.home ?? homedir();
	const files = settingsFilesOf(options.cwd, home, options.workspace);
	const key = await trustKeyOf({ cwd: options.cwd, workspace: options.workspace });
	const trusted = key !== undefined && (await isTrustedKey(key, home));
	const userFile = await realLocation(files[0]?.path ?? "");
	const ignored: string[] = [];
	const withheld: string[] = [];
	const read: { path: string; scope: LoadedSettings["files"][number]["scope"] }[] = [];
	const layers: { where: string; settings: GantrySettings }[] = [];
	for (const file of files) {
		// With the home folder as the project, its .gantry/settings.json is the user's file: read once.
		if (file.scope !== "user" && options.workspace?.isLocal !== false && userFile !== undefined) {
			if ((await realLocation(file.path)) === userFile) continue;
		}
		const checked = await readSettingsFile(file, options);
		if (checked === undefined) continue;
		if ("refused" in checked) {
			ignored.push(checked.refused);
			continue;
		}
		read.push({ path: file.where, scope: file.scope });
		ignored.push(...checked.ignored);
		if (file.scope === "user" || trusted) {
			layers.push({ where: file.where, settings: checked.settings });
			continue;
		}
		const split = splitByTrust(file.where, checked.settings);
		ignored.push(...split.withheld);
		withheld.push(...split.withheld);
		layers.push({ where: file.where, settings: split.kept });
	}
	const settings = mergeSettings(layers.map((layer) => layer.settings));
	const userSandbox = read[0]?.scope === "user" ? layers[0]?.settings.sandbox : undefined;
	// A project that turns the sandbox on tightens; bash running unasked inside it would loosen.
	if (
		!trusted &&
		settings.sandbox?.enabled === true &&
		userSandbox?.enabled !== true &&
		userSandbox?.autoAllowBashIfSandboxed === undefined &&
		settings.sandbox.autoAllowBashIfSandboxed !== false
	) {
		settings.sandbox = { ...settings.sandbox, autoAllowBashIfSandboxed: false };
		const note =
			"sandbox.autoAllowBashIfSandboxed (bash still asks inside the project's sandbox until the folder is trusted)";
		withheld.push(note);
		ignored.push(note);
	}
	const loaded: LoadedSettings = {
		settings,
		files: read,
		trusted,
		ignored,
		withheld,
		ruleSources: ruleSourcesOf(layers),
	};
	const modeLayer = [...layers].reverse().find((layer) => layer.settings.permissions?.defaultMode !== undefined);
	if (modeLayer !== undefined) loaded.defaultModeSource = modeLayer.where;
	return loaded;
}

function ruleSourcesOf(layers: readonly { where: string; settings: GantrySettings }[]): RuleSource[] {
	const sources: RuleSource[] = [];
	for (const { where, settings } of layers) {
		for (const list of ["deny", "ask", "allow"] as const) {
			for (const rule of settings.permissions?.[list] ?? []) sources.push({ list, rule, file: where });
		}
	}
	return sources;
}
