import path from "node:path";
import type { PathPolicy } from "./path-policy.js";

/** How much of a command's output is kept to look for what the sandbox stopped. */
const TAIL_BYTES = 64 * 1024;
const MAX_NOTES = 5;

/** The last `TAIL_BYTES` of what a command printed. */
export class OutputTail {
	#chunks: Buffer[] = [];
	#bytes = 0;

	push(data: Buffer): void {
		this.#chunks.push(data);
		this.#bytes += data.length;
		while (this.#bytes > TAIL_BYTES && this.#chunks.length > 1) this.#bytes -= (this.#chunks.shift() as Buffer).length;
	}

	text(): string {
		return Buffer.concat(this.#chunks).toString("utf8").slice(-TAIL_BYTES);
	}
}

/** Error lines that name a path a write or a read was refused on, as common tools print them. */
const REFUSED_LINE = /read-only file system|permission denied|operation not permitted|erofs|eacces|eperm/i;
const QUOTED_PATH = /['"‘’“”`]((?:\/|\.{1,2}\/|~\/)[^'"‘’“”`\n]*|[^'"‘’“”`\n/\s][^'"‘’“”`\n]*)['"‘’“”`]/g;
const SHELL_PREFIX_PATH =
	/^(?:[\w.-]+: )*(?:line \d+: )?([^:\n]+): (?:Read-only file system|Permission denied|Operation not permitted)/;
/** Messages of a host that could not be reached or looked up. */
const UNREACHABLE = [
	/Could not resolve host: ([^\s'"]+)/i,
	/getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s'"]+)/i,
	/Failed to resolve '([^']+)'/i,
	/unable to resolve host address '([^']+)'/i,
	/\b([a-z0-9-]+(?:\.[a-z0-9-]+)+): (?:Temporary failure in name resolution|Name or service not known)/i,
	/Temporary failure in name resolution|Name or service not known|Network is unreachable/i,
];

/** The paths named on the lines of `output` that report a refused read or write. */
function refusedPaths(output: string): string[] {
	const found = new Set<string>();
	for (const line of output.split("\n")) {
		if (!REFUSED_LINE.test(line)) continue;
		for (const [, quoted] of line.matchAll(QUOTED_PATH)) {
			if (quoted !== undefined) found.add(quoted);
		}
		const [, prefixed] = SHELL_PREFIX_PATH.exec(line) ?? [];
		if (prefixed !== undefined) found.add(prefixed.trim());
	}
	return [...found];
}

/** What the sandbox's lists say about the paths a failed command's output names, as notes. */
export function filesystemNotes(output: string, policy: PathPolicy, cwd: string, home: string): string[] {
	const notes: string[] = [];
	for (const named of refusedPaths(output)) {
		const absolute = named.startsWith("~/") ? path.join(home, named.slice(2)) : path.resolve(cwd, named);
		const refusal = policy.refuseWrite(absolute) ?? policy.refuseRead(absolute);
		if (refusal === undefined) continue;
		const action = policy.refuseWrite(absolute) ? "writing" : "reading";
		notes.push(
			`The sandbox stopped ${action} ${absolute}: ${refusal.why}.${refusal.fix ? ` To allow it, ${refusal.fix}.` : ""}`,
		);
		if (notes.length >= MAX_NOTES) break;
	}
	return notes;
}

/** A note for a command that tried the network in a sandbox that allows no host. */
export function noNetworkNote(output: string): string | undefined {
	for (const pattern of UNREACHABLE) {
		const match = pattern.exec(output);
		if (!match) continue;
		const host = match[1];
		return host
			? `The sandbox allows no network, so ${host} cannot be reached. To allow it, add ${host} to sandbox.network.allowedDomains.`
			: "The sandbox allows no network (sandbox.network.allowedDomains is empty). To allow a host, add it to sandbox.network.allowedDomains.";
	}
	return undefined;
}

/** Notes for the connections sandbox-runtime's proxy refused, from its violation lines. */
export function networkNotes(lines: readonly string[]): string[] {
	const notes = new Set<string>();
	for (const line of lines) {
		const [, host, port, reason] = /deny network-outbound (\S+?):(\d+) \(([^)]*)\)/.exec(line) ?? [];
		if (host === undefined || port === undefined || reason === undefined) continue;
		notes.add(
			/deny list/i.test(reason)
				? `The sandbox refused a connection to ${host}:${port}: it is in sandbox.network.deniedDomains. To allow it, remove it from that list.`
				: `The sandbox refused a connection to ${host}:${port}: it is not in sandbox.network.allowedDomains. To allow it, add ${host} to sandbox.network.allowedDomains.`,
		);
		if (notes.size >= MAX_NOTES) break;
	}
	return [...notes];
}
