import path from "node:path";
import { SandboxError } from "./errors.js";
import type { SandboxSettings } from "./settings.js";

/** The settings with their defaults applied and every path made absolute. */
export interface ResolvedSandboxSettings {
	enabled: boolean;
	autoAllowBashIfSandboxed: boolean;
	excludedCommands: string[];
	allowUnsandboxedCommands: boolean;
	failIfUnavailable: boolean;
	/** Extra writable paths (the working folder and the temp folder are added by the workspace). */
	allowWrite: string[];
	denyWrite: string[];
	denyRead: string[];
	allowRead: string[];
	/** Hosts that may be reached; empty: no network at all. */
	allowedDomains: string[];
	deniedDomains: string[];
	allowLocalBinding: boolean;
	allowUnixSockets: string[];
}

const TOP_KEYS = new Set([
	"enabled",
	"autoAllowBashIfSandboxed",
	"excludedCommands",
	"allowUnsandboxedCommands",
	"failIfUnavailable",
	"filesystem",
	"network",
]);
/** Keys of Claude Code's `sandbox` that Gantry accepts and does not use. */
const CLAUDE_CODE_ONLY_KEYS = new Set([
	"ignoreViolations",
	"enableWeakerNestedSandbox",
	"enableWeakerNetworkIsolation",
	"credentials",
	"ripgrep",
	"bwrapPath",
	"socatPath",
	"enabledPlatforms",
	"allowAppleEvents",
	"allowNestedUserNamespaces",
]);
const FILESYSTEM_KEYS = new Set(["allowWrite", "denyWrite", "denyRead", "allowRead"]);
const FILESYSTEM_CLAUDE_CODE_ONLY = new Set(["allowManagedReadPathsOnly", "disabled"]);
const NETWORK_KEYS = new Set(["allowedDomains", "deniedDomains", "allowLocalBinding", "allowUnixSockets"]);
const NETWORK_CLAUDE_CODE_ONLY = new Set([
	"allowManagedDomainsOnly",
	"allowAllUnixSockets",
	"httpProxyPort",
	"socksProxyPort",
]);

function invalid(key: string, why: string): SandboxError {
	return new SandboxError(
		"invalid_option",
		`sandbox.${key} ${why}. The sandbox settings are Claude Code's, e.g. { "enabled": true, "filesystem": { "allowWrite": ["~/.npm"] }, "network": { "allowedDomains": ["registry.npmjs.org"] } }.`,
	);
}

function checkKeys(value: object, where: string, known: Set<string>, ignored: Set<string>): void {
	for (const key of Object.keys(value)) {
		if (!known.has(key) && !ignored.has(key)) {
			throw invalid(`${where}${key}`, `is not a sandbox setting (known: ${[...known].join(", ")})`);
		}
	}
}

function flag(value: unknown, key: string, fallback: boolean): boolean {
	if (value === undefined) return fallback;
	if (typeof value !== "boolean") throw invalid(key, `must be true or false (got ${JSON.stringify(value)})`);
	return value;
}

function list(value: unknown, key: string): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value) || value.some((entry) => typeof entry !== "string" || entry.trim() === "")) {
		throw invalid(key, "must be a list of non-empty strings");
	}
	for (const entry of value as string[]) {
		if (entry.includes("\0")) throw invalid(key, `has an entry with a NUL character (${JSON.stringify(entry)})`);
	}
	return (value as string[]).map((entry) => entry.trim());
}

function object(value: unknown, key: string): Record<string, unknown> {
	if (value === undefined) return {};
	if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid(key, "must be an object");
	return value as Record<string, unknown>;
}

/**
 * A settings path made absolute, as Claude Code reads them: `//x` and `/x` are absolute, `~` and `~/x` are
 * in the home folder, anything else (`./x`, `x`) is relative to the working folder.
 */
export function resolveSettingsPath(entry: string, cwd: string, home: string): string {
	if (entry.startsWith("//")) return path.resolve(entry.slice(1));
	if (entry === "~") return home;
	if (entry.startsWith("~/")) return path.resolve(home, entry.slice(2));
	return path.resolve(cwd, entry);
}

function domains(value: unknown, key: string): string[] {
	const entries = list(value, key);
	for (const entry of entries) {
		if (/[\s/]/.test(entry))
			throw invalid(
				key,
				`has ${JSON.stringify(entry)}, which is not a host name or pattern (example.com, *.npmjs.org)`,
			);
	}
	return entries;
}

/**
 * Checks the settings (throws `SandboxError` `invalid_option` naming the key) and applies the defaults:
 * `autoAllowBashIfSandboxed`, `allowUnsandboxedCommands` and `failIfUnavailable` true, nothing else.
 */
export function resolveSandboxSettings(
	settings: SandboxSettings,
	place: { cwd: string; home: string },
): ResolvedSandboxSettings {
	const top = object(settings, "(the sandbox key)");
	checkKeys(top, "", TOP_KEYS, CLAUDE_CODE_ONLY_KEYS);
	const filesystem = object(top.filesystem, "filesystem");
	checkKeys(filesystem, "filesystem.", FILESYSTEM_KEYS, FILESYSTEM_CLAUDE_CODE_ONLY);
	const network = object(top.network, "network");
	checkKeys(network, "network.", NETWORK_KEYS, NETWORK_CLAUDE_CODE_ONLY);
	const paths = (key: "allowWrite" | "denyWrite" | "denyRead" | "allowRead") =>
		list(filesystem[key], `filesystem.${key}`).map((entry) => resolveSettingsPath(entry, place.cwd, place.home));
	return {
		enabled: flag(top.enabled, "enabled", false),
		autoAllowBashIfSandboxed: flag(top.autoAllowBashIfSandboxed, "autoAllowBashIfSandboxed", true),
		excludedCommands: list(top.excludedCommands, "excludedCommands"),
		allowUnsandboxedCommands: flag(top.allowUnsandboxedCommands, "allowUnsandboxedCommands", true),
		failIfUnavailable: flag(top.failIfUnavailable, "failIfUnavailable", true),
		allowWrite: paths("allowWrite"),
		denyWrite: paths("denyWrite"),
		denyRead: paths("denyRead"),
		allowRead: paths("allowRead"),
		allowedDomains: domains(network.allowedDomains, "network.allowedDomains"),
		deniedDomains: domains(network.deniedDomains, "network.deniedDomains"),
		allowLocalBinding: flag(network.allowLocalBinding, "network.allowLocalBinding", false),
		allowUnixSockets: list(network.allowUnixSockets, "network.allowUnixSockets").map((entry) =>
			resolveSettingsPath(entry, place.cwd, place.home),
		),
	};
}
