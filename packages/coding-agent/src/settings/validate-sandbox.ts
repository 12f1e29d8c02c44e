import type { SandboxSettings } from "@gantry/sandbox";
import type { SettingsFileCheck } from "./settings-checks.js";
import {
	CLAUDE_CODE_ONLY_SANDBOX_KEYS,
	SANDBOX_FILESYSTEM_KEYS,
	SANDBOX_KEYS,
	SANDBOX_NETWORK_KEYS,
} from "./settings-keys.js";

const BOOLEANS = new Set([
	"enabled",
	"autoAllowBashIfSandboxed",
	"allowUnsandboxedCommands",
	"failIfUnavailable",
	"allowLocalBinding",
]);

/**
 * Checks a settings file's `sandbox` (Claude Code's keys, field for field): the keys `SandboxSettings`
 * has are kept with their types checked, Claude Code's others are noted as ignored, anything else is an
 * error naming the key.
 */
export function checkSandbox(check: SettingsFileCheck, value: unknown): SandboxSettings {
	const sandbox = check.object(
		"sandbox",
		value,
		'{ "enabled": true, "network": { "allowedDomains": ["registry.example.com"] } }',
	);
	const result: Record<string, unknown> = {};
	for (const key of check.keys("sandbox", sandbox, SANDBOX_KEYS, CLAUDE_CODE_ONLY_SANDBOX_KEYS[""])) {
		const entry = sandbox[key];
		if (key === "filesystem" || key === "network") {
			const known = key === "filesystem" ? SANDBOX_FILESYSTEM_KEYS : SANDBOX_NETWORK_KEYS;
			const group = check.object(
				`sandbox.${key}`,
				entry,
				key === "filesystem" ? '{ "denyRead": ["~/.ssh"] }' : '{ "allowedDomains": ["example.com"] }',
			);
			const checked: Record<string, unknown> = {};
			for (const field of check.keys(`sandbox.${key}`, group, known, CLAUDE_CODE_ONLY_SANDBOX_KEYS[key])) {
				checked[field] = checkValue(check, `sandbox.${key}.${field}`, field, group[field]);
			}
			result[key] = checked;
		} else result[key] = checkValue(check, `sandbox.${key}`, key, entry);
	}
	return result as SandboxSettings;
}

function checkValue(check: SettingsFileCheck, path: string, field: string, value: unknown): unknown {
	if (BOOLEANS.has(field)) return check.boolean(path, value);
	return check.strings(path, value, '["example"]');
}
