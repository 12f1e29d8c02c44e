/** Compiles tool-name patterns: exact names, or `*` wildcards matching any run of characters. */
export function compileNamePatterns(patterns: readonly string[]): (name: string) => boolean {
	const exact = new Set<string>();
	const wildcards: RegExp[] = [];
	for (const pattern of patterns) {
		if (!pattern.includes("*")) exact.add(pattern);
		else wildcards.push(new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`));
	}
	return (name) => exact.has(name) || wildcards.some((wildcard) => wildcard.test(name));
}

function escapeRegExp(text: string): string {
	return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

/** The allow/deny filter of the registry: deny beats allow; no allowlist allows everything. */
export function createToolFilter(allow: readonly string[] | undefined, deny: readonly string[] | undefined) {
	const allowed = allow ? compileNamePatterns(allow) : () => true;
	const denied = deny ? compileNamePatterns(deny) : () => false;
	return (name: string) => allowed(name) && !denied(name);
}
