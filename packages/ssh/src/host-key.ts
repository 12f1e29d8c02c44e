import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { SshError } from "./errors.js";
import {
	entryMatchesHost,
	fingerprintOf,
	type KnownHostEntry,
	keyTypeOf,
	knownHostName,
	parseKnownHosts,
} from "./known-hosts.js";

/** How the server's host key is checked: what `createSshWorkspace`'s `hostKey` option says. */
export type HostKeyOption = string | ((key: Buffer) => boolean) | undefined;

/** Checks one offered host key; `verify` returns the refusal (or undefined to accept). */
export interface HostKeyCheck {
	/** Where keys are looked up, for messages. */
	readonly source: string;
	verify(key: Buffer): SshError | undefined;
}

/** The known_hosts files OpenSSH reads by default: the user's, then the system's. */
export function defaultKnownHostsFiles(): string[] {
	return [join(homedir(), ".ssh", "known_hosts"), "/etc/ssh/ssh_known_hosts"];
}

/**
 * Prepares the check for `host:port`: against `option` when given (a key line, a bare base64 key, a
 * `SHA256:` fingerprint, or a function), else against the known_hosts files. Throws `invalid_options`
 * for a `hostKey` string that holds no key.
 */
export async function prepareHostKeyCheck(
	option: HostKeyOption,
	host: string,
	port: number,
	knownHostsFiles: readonly string[] = defaultKnownHostsFiles(),
): Promise<HostKeyCheck> {
	const label = knownHostName(host, port);
	if (typeof option === "function") {
		return {
			source: "the hostKey function",
			verify: (key) => (option(key) ? undefined : unknownKey(label, key, "the hostKey function refused it")),
		};
	}
	if (typeof option === "string") return checkAgainstOption(option, label);
	const entries: KnownHostEntry[] = [];
	for (const file of knownHostsFiles) {
		const text = await readFile(file, "utf8").catch(() => "");
		entries.push(...parseKnownHosts(text).filter((entry) => entryMatchesHost(entry.hosts, label)));
	}
	const source = knownHostsFiles[0] ?? "known_hosts";
	return { source, verify: (key) => checkAgainstKnownHosts(entries, key, label, source) };
}

function checkAgainstKnownHosts(
	entries: readonly KnownHostEntry[],
	key: Buffer,
	label: string,
	source: string,
): SshError | undefined {
	if (entries.some((entry) => entry.revoked && entry.key.equals(key))) {
		return new SshError(
			"host_key_mismatch",
			`The host key of ${label} (${describeKey(key)}) is marked @revoked in known_hosts, so Gantry did not log in.`,
		);
	}
	const recorded = entries.filter((entry) => !entry.revoked);
	if (recorded.some((entry) => entry.key.equals(key))) return undefined;
	if (recorded.length > 0) {
		const kinds = [...new Set(recorded.map((entry) => entry.keyType))].join(", ");
		return new SshError(
			"host_key_mismatch",
			`The host key of ${label} has CHANGED: it offered ${describeKey(key)}, but ${source} records a different ` +
				`key (${kinds}). Someone may be intercepting the connection, or the host was reinstalled. Gantry did not log in; ` +
				`if the change is expected, remove the old line (ssh-keygen -R '${label}') and add the new key after checking its fingerprint.`,
		);
	}
	return unknownKey(label, key, `it is not in ${source}`);
}

function checkAgainstOption(option: string, label: string): HostKeyCheck {
	const fingerprints: string[] = [];
	const keys: Buffer[] = [];
	for (const line of option.split(/\r?\n/)) {
		const fields = line.trim().split(/\s+/).filter(Boolean);
		const first = fields[0];
		if (first === undefined || first.startsWith("#")) continue;
		if (fields.length === 1 && first.startsWith("SHA256:")) {
			fingerprints.push(first.replace(/=+$/, ""));
			continue;
		}
		const typeIndex = fields.findIndex((field) => /^(ssh-|ecdsa-|sk-)/.test(field));
		const encoded = typeIndex >= 0 ? fields[typeIndex + 1] : fields.length === 1 ? fields[0] : undefined;
		const key = encoded ? Buffer.from(encoded, "base64") : Buffer.alloc(0);
		if (key.length > 0) keys.push(key);
	}
	if (keys.length === 0 && fingerprints.length === 0) {
		throw new SshError(
			"invalid_options",
			"hostKey holds no key: give a known_hosts-style line ('ssh-ed25519 AAAA…'), a base64 key, a SHA256: fingerprint, or a function.",
		);
	}
	return {
		source: "the hostKey option",
		verify(key) {
			if (keys.some((known) => known.equals(key)) || fingerprints.includes(fingerprintOf(key))) return undefined;
			return new SshError(
				"host_key_mismatch",
				`The host key of ${label} (${describeKey(key)}) does not equal the hostKey option, so Gantry did not log in.`,
			);
		},
	};
}

function unknownKey(label: string, key: Buffer, reason: string): SshError {
	return new SshError(
		"host_key_unknown",
		`The host key of ${label} (${describeKey(key)}) is unknown: ${reason}, so Gantry did not log in (the host answered; its key is not trusted yet). Check the fingerprint ` +
			"with the host's owner, then add the key to ~/.ssh/known_hosts (ssh-keyscan prints it) or pass it as hostKey.",
	);
}

function describeKey(key: Buffer): string {
	return `${keyTypeOf(key)} ${fingerprintOf(key)}`;
}
