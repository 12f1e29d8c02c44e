/** Provider tool names: 1–64 of `[A-Za-z0-9_-]`. */
const MAX_NAME_LENGTH = 64;

/** `text` with every character outside `[A-Za-z0-9_-]` replaced by `_` (empty becomes `_`). */
export function sanitizeNamePart(text: string): string {
	const cleaned = text.replace(/[^A-Za-z0-9_-]/g, "_");
	return cleaned === "" ? "_" : cleaned;
}

/** A short, stable hash of `text` (FNV-1a, 32 bits, base 36). */
function shortHash(text: string): string {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36);
}

/** `name` cut to 64 characters, keeping a hash of the whole so that long names stay distinct. */
function fitLength(name: string, original: string): string {
	if (name.length <= MAX_NAME_LENGTH) return name;
	const suffix = `_${shortHash(original)}`;
	return `${name.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/**
 * Gantry names for one server's tools, `mcp__<server>__<tool>`, sanitised to `[A-Za-z0-9_-]` and at most
 * 64 characters. Deterministic: the same server name and tool names give the same result whatever the
 * order the server lists them in. Tools whose names collide after sanitising are told apart by a hash
 * of their original name; names already taken (`taken`, e.g. other servers' tools) count as collisions.
 */
export function mcpToolNames(
	server: string,
	toolNames: readonly string[],
	taken: ReadonlySet<string> = new Set(),
): Map<string, string> {
	const prefix = `mcp__${sanitizeNamePart(server)}__`;
	const candidates = new Map<string, string[]>();
	for (const tool of [...new Set(toolNames)].sort()) {
		const candidate = fitLength(`${prefix}${sanitizeNamePart(tool)}`, `${server}\u0000${tool}`);
		const list = candidates.get(candidate) ?? [];
		list.push(tool);
		candidates.set(candidate, list);
	}
	const names = new Map<string, string>();
	const used = new Set(taken);
	for (const [candidate, tools] of candidates) {
		// One tool keeps the plain name: the only one, else the one whose name needed no change.
		const plain = used.has(candidate)
			? undefined
			: tools.length === 1
				? tools[0]
				: tools.find((tool) => `${prefix}${tool}` === candidate);
		for (const tool of tools) {
			const hash = shortHash(`${server}\u0000${tool}`);
			let name = tool === plain ? candidate : withSuffix(candidate, hash);
			for (let attempt = 2; used.has(name); attempt++) name = withSuffix(candidate, `${hash}${attempt}`);
			used.add(name);
			names.set(tool, name);
		}
	}
	return names;
}

function withSuffix(name: string, suffix: string): string {
	const tail = `_${suffix}`;
	return `${name.slice(0, MAX_NAME_LENGTH - tail.length)}${tail}`;
}

/**
 * The sanitised form of each server name, as used in tool names. Servers whose names sanitise to the same
 * text are told apart by a hash of their original name (the one that needed no change keeps it plain).
 */
export function mcpServerNameParts(servers: readonly string[]): Map<string, string> {
	const parts = new Map<string, string>();
	const byPart = new Map<string, string[]>();
	for (const server of [...new Set(servers)].sort()) {
		const part = sanitizeNamePart(server);
		byPart.set(part, [...(byPart.get(part) ?? []), server]);
	}
	for (const [part, group] of byPart) {
		const plain = group.length === 1 ? group[0] : (group.find((server) => server === part) ?? undefined);
		for (const server of group) parts.set(server, server === plain ? part : `${part}_${shortHash(server)}`);
	}
	return parts;
}
