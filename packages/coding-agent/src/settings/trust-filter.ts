import type { SandboxSettings } from "@gantry/sandbox";
import { isAtLeastAsStrict } from "../permissions/permission-modes.js";
import type { GantrySettings } from "./types.js";

/** What an untrusted project's settings file may still do, and what it asked for and does not get. */
export interface TrustSplit {
	kept: GantrySettings;
	withheld: string[];
}

const listed = (rules: readonly string[]) =>
	`${rules.length} rule${rules.length === 1 ? "" : "s"}: ${rules.slice(0, 5).join(", ")}${rules.length > 5 ? ", …" : ""}`;

/**
 * Splits the settings of an untrusted project's file: deny rules, a stricter `defaultMode` (`plan`,
 * `dontAsk`) and sandbox tightening (turning it on, denied paths and domains, failing when unavailable,
 * keeping the model from leaving it) always apply; allow and ask rules, hooks, env, a looser mode and
 * sandbox loosening (allowed paths and domains, excluded commands, auto-allowed bash, local binding,
 * sockets, turning it off) wait for trust. `model` and `provider` are kept (they only pick a model).
 */
export function splitByTrust(where: string, settings: GantrySettings): TrustSplit {
	const withheld: string[] = [];
	const kept: GantrySettings = {};
	const { permissions } = settings;
	if (permissions !== undefined) {
		const keptPermissions: NonNullable<GantrySettings["permissions"]> = {};
		if (permissions.deny !== undefined) keptPermissions.deny = permissions.deny;
		for (const list of ["allow", "ask"] as const) {
			const rules = permissions[list];
			if (rules !== undefined && rules.length > 0) withheld.push(`${where}: permissions.${list} (${listed(rules)})`);
		}
		const mode = permissions.defaultMode;
		if (mode !== undefined) {
			if (isAtLeastAsStrict(mode, "default")) keptPermissions.defaultMode = mode;
			else withheld.push(`${where}: permissions.defaultMode ${mode}`);
		}
		kept.permissions = keptPermissions;
	}
	if (settings.hooks !== undefined) {
		const events = Object.entries(settings.hooks).filter(([, groups]) => (groups ?? []).length > 0);
		for (const [event, groups] of events) {
			const commands = (groups ?? []).flatMap((group) => group.hooks.map((hook) => hook.command));
			withheld.push(`${where}: hooks.${event} (${commands.map((command) => JSON.stringify(command)).join(", ")})`);
		}
	}
	if (settings.env !== undefined && Object.keys(settings.env).length > 0) {
		withheld.push(`${where}: env (${Object.keys(settings.env).join(", ")})`);
	}
	if (settings.sandbox !== undefined) {
		const sandbox = splitSandbox(settings.sandbox);
		kept.sandbox = sandbox.kept;
		withheld.push(...sandbox.withheld.map((key) => `${where}: sandbox.${key}`));
	}
	if (settings.model !== undefined) kept.model = settings.model;
	if (settings.provider !== undefined) kept.provider = settings.provider;
	return { kept, withheld };
}

/** Boolean sandbox fields and the value that tightens. */
const TIGHTENING: Record<string, boolean> = {
	enabled: true,
	autoAllowBashIfSandboxed: false,
	allowUnsandboxedCommands: false,
	failIfUnavailable: true,
};

function splitSandbox(sandbox: SandboxSettings): { kept: SandboxSettings; withheld: string[] } {
	const kept: Record<string, unknown> = {};
	const withheld: string[] = [];
	for (const [key, value] of Object.entries(sandbox)) {
		if (key in TIGHTENING) {
			if (value === TIGHTENING[key]) kept[key] = value;
			else withheld.push(`${key} ${String(value)}`);
		} else if (key === "excludedCommands" && Array.isArray(value) && value.length > 0) {
			withheld.push(`excludedCommands (${value.join(", ")})`);
		}
	}
	const filesystem = sandbox.filesystem;
	if (filesystem !== undefined) {
		kept.filesystem = withoutEmpty({ denyRead: filesystem.denyRead, denyWrite: filesystem.denyWrite });
		for (const key of ["allowWrite", "allowRead"] as const) {
			if ((filesystem[key] ?? []).length > 0) withheld.push(`filesystem.${key} (${filesystem[key]?.join(", ")})`);
		}
	}
	const network = sandbox.network;
	if (network !== undefined) {
		kept.network = withoutEmpty({
			deniedDomains: network.deniedDomains,
			...(network.allowLocalBinding === false ? { allowLocalBinding: false } : {}),
		});
		if ((network.allowedDomains ?? []).length > 0) {
			withheld.push(`network.allowedDomains (${network.allowedDomains?.join(", ")})`);
		}
		if ((network.allowUnixSockets ?? []).length > 0) {
			withheld.push(`network.allowUnixSockets (${network.allowUnixSockets?.join(", ")})`);
		}
		if (network.allowLocalBinding === true) withheld.push("network.allowLocalBinding true");
	}
	return { kept: kept as SandboxSettings, withheld };
}

function withoutEmpty<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
