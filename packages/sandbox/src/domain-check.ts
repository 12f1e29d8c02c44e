import { SandboxError } from "./errors.js";
import type { ResolvedSandboxSettings } from "./resolve-settings.js";

/**
 * Checks `network.allowedDomains` and `network.deniedDomains` with sandbox-runtime's own rules (those of its
 * configuration schema, which its manager does not apply to a configuration it is given): a malformed or
 * too broad entry (`*.com`, `*`, `https://x/`) is the settings' fault and is reported at set-up, before the
 * network starts — which it does after `createSandboxedWorkspace` has returned. Loads only the library's
 * small domain-pattern module, and only when a list has entries. Throws `SandboxError` `invalid_option`.
 */
export async function checkDomainLists(settings: ResolvedSandboxSettings): Promise<void> {
	if (settings.allowedDomains.length === 0 && settings.deniedDomains.length === 0) return;
	const rules = await import("@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js");
	for (const entry of settings.allowedDomains) {
		if (!rules.isValidAllowedDomainEntry(entry)) {
			throw refused("network.allowedDomains", entry, rules.ALLOWED_DOMAIN_ENTRY_MESSAGE);
		}
	}
	for (const entry of settings.deniedDomains) {
		// The schema's rule for a denied entry: an allowed one, or a bare `*` (deny all), either with a port.
		const { hostPattern } = rules.splitDomainPatternPort(entry);
		const valid =
			rules.hasValidIpv6Bracketing(entry) && (hostPattern === "*" || rules.isValidDomainPattern(hostPattern));
		if (!valid)
			throw refused("network.deniedDomains", entry, `${rules.DOMAIN_PATTERN_MESSAGE} A bare "*" is allowed here.`);
	}
}

function refused(key: string, entry: string, why: string): SandboxError {
	return new SandboxError(
		"invalid_option",
		`sandbox.${key} has ${JSON.stringify(entry)}, which sandbox-runtime refuses: ${why}`,
	);
}
