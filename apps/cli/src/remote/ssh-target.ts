import { usageError } from "../errors.js";

/** Where `--ssh user@host[:port]` points. */
export interface SshTarget {
	username: string;
	host: string;
	port: number;
}

/**
 * Parses `user@host`, `user@host:port` and `user@[v6-address]:port`. Throws a usage error naming the
 * expected form for anything else.
 */
export function parseSshTarget(value: string): SshTarget {
	const at = value.lastIndexOf("@");
	const username = at > 0 ? value.slice(0, at) : "";
	const rest = at > 0 ? value.slice(at + 1) : "";
	let host = rest;
	let portText: string | undefined;
	if (rest.startsWith("[")) {
		const close = rest.indexOf("]");
		host = close > 0 ? rest.slice(1, close) : "";
		const after = close > 0 ? rest.slice(close + 1) : "";
		if (after !== "" && !after.startsWith(":")) host = "";
		portText = after.startsWith(":") ? after.slice(1) : undefined;
	} else if (rest.includes(":")) {
		host = rest.slice(0, rest.lastIndexOf(":"));
		portText = rest.slice(rest.lastIndexOf(":") + 1);
	}
	const port = portText === undefined ? 22 : Number(portText);
	if (username === "" || host === "" || /[\s/]/.test(host)) {
		throw usageError(`--ssh needs user@host or user@host:port (got "${value}")`);
	}
	if (!Number.isInteger(port) || port < 1 || port > 65_535) {
		throw usageError(`--ssh: the port must be a number from 1 to 65535 (got "${portText}")`);
	}
	return { username, host, port };
}
