import { CodingAgentError, trustProjectOn } from "@gantry/coding-agent";
import type { ExtensionUI } from "@gantry/extensions";
import type { CliOptions } from "./args.js";
import { CliError } from "./errors.js";
import type { CliIo } from "./io.js";
import { type RunPermissions, readRunPermissions, type SettingsPlace } from "./permission-settings.js";
import { describeRequests, projectRequests, untrustedNotice } from "./project-requests.js";
import { resolveWorkingFolder } from "./working-folder.js";

/** Trusts the folder (`~/.gantry/trust.json`); a failure is a `session_failed` error saying why. */
export async function trustFolder(place: SettingsPlace): Promise<void> {
	try {
		await trustProjectOn(place);
	} catch (error) {
		if (error instanceof CodingAgentError) throw new CliError("session_failed", error.message, { cause: error });
		throw error;
	}
}

const TRUST = "Trust this folder";
const NOT_NOW = "Not now";

/**
 * Interactive mode's question for a folder that is not trusted and asks for something (rules, hooks, env,
 * sandbox loosening, a default mode, MCP servers with their commands): the person trusts it, or the run
 * goes on without what it asked for. A folder that asks for nothing is not asked about.
 */
export async function askToTrust(
	ui: ExtensionUI,
	run: RunPermissions,
	place: SettingsPlace,
): Promise<{ trusted: boolean; notice?: string }> {
	const requests = await projectRequests(run, place);
	if (requests === undefined) return { trusted: run.loaded.trusted };
	const title = [
		`Trust ${place.cwd}?`,
		"Its settings and .mcp.json ask for the following, which only a trusted folder gets (its deny rules apply anyway):",
		...describeRequests(requests),
		"Trust it only if you trust its authors: its hooks and servers run commands on this machine.",
	].join("\n");
	if ((await ui.select(title, [TRUST, NOT_NOW])) === TRUST) {
		await trustFolder(place);
		return { trusted: true };
	}
	const notice = await untrustedNotice(run, place);
	return { trusted: false, ...(notice === undefined ? {} : { notice }) };
}

/**
 * `gantry trust`: trusts the working folder (or `--cwd`) and says what that lets its settings and
 * `.mcp.json` do. Resolves to the exit code.
 */
export async function runTrustCommand(options: CliOptions, io: CliIo): Promise<number> {
	const cwd = resolveWorkingFolder(options.cwd);
	const before = await readRunPermissions(options, { cwd });
	const requests = await projectRequests(before, { cwd });
	await trustFolder({ cwd });
	const lines = [`Trusted ${cwd}.`];
	if (requests !== undefined) lines.push("From now on it gets what it asks for:", ...describeRequests(requests));
	else lines.push("It asks for nothing beyond deny rules today; what its settings and .mcp.json add later will apply.");
	io.stdout.write(`${lines.join("\n")}\n`);
	return 0;
}
