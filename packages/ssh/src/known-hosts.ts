import { createHash, createHmac } from "node:crypto";

/** One usable line of a known_hosts file. */
export interface KnownHostEntry {
	/** The host patterns, comma-separated, or one hashed name (`|1|salt|hash`). */
	hosts: string;
	/** `@revoked` lines name keys that must never be accepted; `@cert-authority` lines are skipped. */
	revoked: boolean;
	keyType: string;
	/** The public key blob. */
	key: Buffer;
}

/** The entries of a known_hosts file's text; comments, blank and malformed lines are skipped. */
export function parseKnownHosts(text: string): KnownHostEntry[] {
	const entries: KnownHostEntry[] = [];
	for (const rawLine of text.split(/\r?\n/)) {
		const line = rawLine.trim();
		if (line === "" || line.startsWith("#")) continue;
		const fields = line.split(/\s+/);
		let revoked = false;
		if (fields[0]?.startsWith("@")) {
			const marker = fields.shift();
			if (marker === "@cert-authority") continue;
			revoked = marker === "@revoked";
			if (!revoked) continue;
		}
		const [hosts, keyType, encoded] = fields;
		if (!hosts || !keyType || !encoded) continue;
		const key = Buffer.from(encoded, "base64");
		if (key.length === 0) continue;
		entries.push({ hosts, revoked, keyType, key });
	}
	return entries;
}

/** The name known_hosts records for a host: `host` on port 22, `[host]:port` on any other. */
export function knownHostName(host: string, port: number): string {
	return port === 22 ? host : `[${host}]:${port}`;
}

/** Whether an entry's host field names `name` (hashed names, wildcards and `!` negations included). */
export function entryMatchesHost(hosts: string, name: string): boolean {
	if (hosts.startsWith("|1|")) return hashedNameMatches(hosts, name);
	let matched = false;
	for (const pattern of hosts.split(",")) {
		const negated = pattern.startsWith("!");
		const body = negated ? pattern.slice(1) : pattern;
		if (!wildcardMatches(body.toLowerCase(), name.toLowerCase())) continue;
		if (negated) return false;
		matched = true;
	}
	return matched;
}

function hashedNameMatches(hosts: string, name: string): boolean {
	const [, , salt, hash] = hosts.split("|");
	if (!salt || !hash) return false;
	const digest = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64");
	return digest === hash;
}

/** OpenSSH's host pattern syntax: `*` any run of characters, `?` one character. */
function wildcardMatches(pattern: string, text: string): boolean {
	if (!pattern.includes("*") && !pattern.includes("?")) return pattern === text;
	const source = pattern
		.replace(/[.+^${}()|[\]\\]/g, "\\$&")
		.replace(/\*/g, ".*")
		.replace(/\?/g, ".");
	return new RegExp(`^${source}$`).test(text);
}

/** The key type a public key blob names (its first SSH string), e.g. `ssh-ed25519`. */
export function keyTypeOf(key: Buffer): string {
	if (key.length < 4) return "unknown";
	const length = key.readUInt32BE(0);
	if (length > key.length - 4) return "unknown";
	return key.subarray(4, 4 + length).toString("latin1");
}

/** The OpenSSH fingerprint of a key blob: `SHA256:` and unpadded base64. */
export function fingerprintOf(key: Buffer): string {
	return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}
