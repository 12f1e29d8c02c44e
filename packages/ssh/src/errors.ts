import { GantryError } from "@gantry/ai";

/** Why an SSH workspace could not be made or could no longer reach its host. */
export type SshErrorCode =
	/** The options are incomplete or contradict each other (no credential, a relative `cwd`, an unreadable key). */
	| "invalid_options"
	/** The TCP connection failed: nothing listens on the port, the host name is unknown, the network is down. */
	| "connection_failed"
	/** The host did not finish the handshake and login in time. */
	| "timeout"
	/** The server refused every credential offered. */
	| "authentication_failed"
	/** The host's key is not in known_hosts (or does not equal `hostKey`): Gantry does not log in. */
	| "host_key_unknown"
	/** known_hosts holds a different key for this host (or marks this one revoked): Gantry does not log in. */
	| "host_key_mismatch"
	/** The connection was lost and one attempt to connect again failed too. */
	| "connection_lost"
	/** Connected, but the host could not be prepared (its `cwd` is missing, no temp folder could be made). */
	| "remote_setup_failed"
	/** The host's sshd offers no SFTP subsystem, which the workspace's file operations need. */
	| "sftp_unavailable";

/** The one error class of `@gantry/ssh`: `code` says what went wrong, `cause` holds the underlying error. */
export class SshError extends GantryError<SshErrorCode> {
	override readonly name = "SshError";

	constructor(code: SshErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
	}
}
