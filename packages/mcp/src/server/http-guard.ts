import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** Why a request is refused before it reaches a session: the HTTP status and the message sent. */
export interface GuardRefusal {
	status: 401 | 403;
	message: string;
}

/** What `createHttpGuard` checks, fixed once the listener knows the address it is bound to. */
export interface HttpGuardOptions {
	/** The address the server is bound to (as `server.address()` reports it). */
	boundAddress: string;
	port: number;
	/** A bearer token every request must carry; undefined accepts requests without one. */
	token?: string;
	/** Host names (without port) accepted besides the loopback ones. */
	allowedHosts?: readonly string[];
	/** Origins (`scheme://host[:port]`) accepted besides the server's own loopback origins. */
	allowedOrigins?: readonly string[];
}

/** Host names a loopback listener answers to (the names the MCP SDK's `localhostHostValidation` allows). */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `address` is a loopback address or name (127.0.0.0/8, ::1, localhost). */
export function isLoopbackAddress(address: string): boolean {
	const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
	if (bare === "localhost" || bare === "::1") return true;
	if (bare.startsWith("::ffff:")) return isLoopbackAddress(bare.slice("::ffff:".length));
	return isIP(bare) === 4 && bare.startsWith("127.");
}

/**
 * The token a listener bound to `boundAddress` requires: the one given, else none on loopback and a
 * fresh random one (32 bytes, URL-safe) on any other address, which the whole network may reach.
 */
export function listenerToken(boundAddress: string, given: string | undefined): string | undefined {
	if (given !== undefined) return given;
	return isLoopbackAddress(boundAddress) ? undefined : randomBytes(32).toString("base64url");
}

/**
 * The checks every request passes before any session is found or made. On a loopback bind, the `Host`
 * header must name a loopback host (or one of `allowedHosts`) and an `Origin` header, when a browser sends
 * one, must be the server's own origin (or one of `allowedOrigins`): a page that reaches the port
 * through DNS rebinding sends its own host name and origin, and is refused with 403. With a token, the
 * request must also carry `Authorization: Bearer <token>` (compared in constant time), else 401.
 */
export function createHttpGuard(options: HttpGuardOptions): (request: IncomingMessage) => GuardRefusal | undefined {
	const loopback = isLoopbackAddress(options.boundAddress);
	const ownNames = loopback ? [...new Set([...LOOPBACK_NAMES, hostKey(options.boundAddress)])] : [];
	const hosts = new Set([...ownNames, ...(options.allowedHosts ?? []).map(hostKey)]);
	const origins = new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase().replace(/\/$/, "")));
	for (const name of ownNames) origins.add(`http://${name}:${options.port}`);
	const checkHosts = loopback || hosts.size > 0;
	const expected = options.token === undefined ? undefined : digest(options.token);

	return (request) => {
		if (checkHosts) {
			const host = request.headers.host;
			if (host === undefined || host === "")
				return { status: 403, message: "Forbidden: the request has no Host header." };
			const name = hostnameOf(host);
			if (name === undefined || !hosts.has(name))
				return {
					status: 403,
					message: `Forbidden: Host "${host}" is not this server's (it answers to ${[...hosts].join(", ")}). A page reaching a local port through DNS rebinding sends its own host name.`,
				};
		}
		const origin = request.headers.origin;
		if (origin !== undefined && (checkHosts || origins.size > 0)) {
			const normalized = origin.toLowerCase().replace(/\/$/, "");
			if (!origins.has(normalized))
				return {
					status: 403,
					message: `Forbidden: Origin "${origin}" may not use this server (a web page cannot reach it; pass allowedOrigins to allow one).`,
				};
		}
		if (expected !== undefined) {
			const given = bearerToken(request.headers.authorization);
			if (given === undefined)
				return {
					status: 401,
					message: "Unauthorized: send Authorization: Bearer <token> (the token the server printed).",
				};
			if (!timingSafeEqual(digest(given), expected))
				return { status: 401, message: "Unauthorized: the bearer token is wrong." };
		}
		return undefined;
	};
}

/** Hashing first gives both sides the same length, so `timingSafeEqual` never sees unequal lengths. */
function digest(text: string): Buffer {
	return createHash("sha256").update(text, "utf8").digest();
}

function bearerToken(header: string | undefined): string | undefined {
	const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
	return match?.[1];
}

/** The host name of a `Host` header, port dropped, IPv6 kept in brackets (as `URL` spells it). */
function hostnameOf(host: string): string | undefined {
	try {
		const url = new URL(`http://${host}`);
		if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "") return undefined;
		return url.hostname.toLowerCase();
	} catch {
		return undefined;
	}
}

/** `::1` → `[::1]`, names lowercased, so configured hosts compare with `hostnameOf`. */
function hostKey(host: string): string {
	const lower = host.toLowerCase();
	return isIP(lower) === 6 ? `[${lower}]` : lower;
}
