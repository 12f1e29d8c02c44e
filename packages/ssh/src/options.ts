/** How `createSshWorkspace` reaches the host and where the tools work there. */
export interface SshWorkspaceOptions {
	/** Host name or address. */
	host: string;
	/** TCP port. Default 22. */
	port?: number;
	/** The account to log in as. */
	username: string;
	/** A private key (OpenSSH or PEM text, or its bytes). Give this, `password` or `agent`. */
	privateKey?: string | Buffer;
	/** The private key's passphrase, when it has one. */
	passphrase?: string;
	/** A password, tried after the key. */
	password?: string;
	/** Path of an ssh-agent socket (e.g. `process.env.SSH_AUTH_SOCK`). The agent is never forwarded. */
	agent?: string;
	/** The working folder on the host: absolute, or relative to the home folder (`~/project` too). Must exist. */
	cwd: string;
	/**
	 * How the host's key is verified. Default: `~/.ssh/known_hosts` and `/etc/ssh/ssh_known_hosts` (hashed
	 * names and `[host]:port` entries included); an unknown or changed key refuses the connection. A string
	 * is one or more known_hosts-style lines (`ssh-ed25519 AAAA…`, host names optional), a bare base64
	 * key, or a `SHA256:` fingerprint; a function gets the key blob and returns whether to trust it.
	 */
	hostKey?: string | ((key: Buffer) => boolean);
	/**
	 * Folder on the host for full-output and spill files; created when missing and kept on `close()`.
	 * Default: a new `mktemp -d` folder, removed on `close()`.
	 */
	tempDir?: string;
}
