import { Client, type ConnectConfig, type SFTPWrapper } from "ssh2";
import { SshError } from "./errors.js";
import type { HostKeyCheck } from "./host-key.js";
import type { SshWorkspaceOptions } from "./options.js";

/** The whole handshake and login must finish within this (the brief: failures within 10 s). */
const CONNECT_TIMEOUT_MS = 9_000;
/** A silent connection is noticed after about three missed keep-alives. */
const KEEPALIVE_INTERVAL_MS = 15_000;

/** The ways to log in; at least one is given. */
export type SshCredentials = Pick<SshWorkspaceOptions, "privateKey" | "passphrase" | "password" | "agent">;

/** What one login needs. */
export interface ConnectSettings extends SshCredentials {
	host: string;
	port: number;
	username: string;
	hostKey: HostKeyCheck;
}

/** The credentials of `source` that are set (ssh2 would take a key present as `undefined` as given). */
export function credentialsOf(source: SshCredentials): SshCredentials {
	const given: SshCredentials = {};
	if (source.privateKey !== undefined) given.privateKey = source.privateKey;
	if (source.passphrase !== undefined) given.passphrase = source.passphrase;
	if (source.password !== undefined) given.password = source.password;
	if (source.agent !== undefined) given.agent = source.agent;
	return given;
}

/** The live parts of one connection. */
export interface LiveConnection {
	client: Client;
	/** The SFTP session, opened on first use and again after it ended. */
	sftp(): Promise<SFTPWrapper>;
}

/**
 * One SSH connection, shared by every operation (exec channels and one SFTP session multiplexed over
 * it). When it is lost, the next operation connects again once; when that fails too, the operation
 * fails with `connection_lost` naming why, and the one after tries again.
 */
export class SshConnection {
	readonly label: string;
	private live: LiveConnection | undefined;
	private connecting: Promise<LiveConnection> | undefined;
	private closed = false;
	private lostReason: string | undefined;

	constructor(private readonly settings: ConnectSettings) {
		this.label = `${settings.username}@${settings.host}:${settings.port}`;
	}

	/** Whether the connection is up now (no reconnect is needed for the next operation). */
	get isLive(): boolean {
		return this.live !== undefined && !this.closed;
	}

	/** Connects for the first time; rejects with an `SshError` naming the cause. */
	async open(): Promise<void> {
		await this.connect();
	}

	/**
	 * Runs `operation` on the connection, connecting again first when it was lost. When the connection
	 * drops under the operation, an `idempotent` one (every file operation, opening a channel) is run once
	 * more on a new connection; otherwise, or when that fails too, it rejects with `connection_lost`.
	 */
	async use<T>(operation: (connection: LiveConnection) => Promise<T>, idempotent = true): Promise<T> {
		const live = await this.ensure();
		try {
			return await operation(live);
		} catch (error) {
			if (!this.droppedUnder(live, error) || !idempotent) throw this.lossOf(live, error);
		}
		return this.guard(await this.ensure(), operation);
	}

	/** Runs `operation` on `live` as is; a failure because the connection dropped becomes `connection_lost`. */
	async guard<T>(live: LiveConnection, operation: (connection: LiveConnection) => Promise<T>): Promise<T> {
		try {
			return await operation(live);
		} catch (error) {
			throw this.lossOf(live, error);
		}
	}

	private async ensure(): Promise<LiveConnection> {
		if (this.closed) throw new SshError("connection_lost", `The SSH workspace ${this.label} is closed.`);
		if (this.live) return this.live;
		const reason = this.lostReason ?? "it was closed";
		try {
			return await this.connect();
		} catch (error) {
			throw new SshError(
				"connection_lost",
				`The SSH connection to ${this.label} was lost (${reason}) and connecting again failed: ${(error as Error).message}`,
				{ cause: error },
			);
		}
	}

	private droppedUnder(live: LiveConnection, error: unknown): boolean {
		return this.live !== live && !this.closed && !(error instanceof SshError);
	}

	private lossOf(live: LiveConnection, error: unknown): unknown {
		if (this.live === live || error instanceof SshError) return error;
		return new SshError(
			"connection_lost",
			`The SSH connection to ${this.label} was lost during the operation (${this.lostReason ?? "closed"}).`,
			{ cause: error },
		);
	}

	/** Ends the connection; every later operation fails. Leaves no socket or timer behind. */
	async close(): Promise<void> {
		this.closed = true;
		const live = this.live ?? (await this.connecting?.catch(() => undefined));
		this.live = undefined;
		if (!live) return;
		await new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				live.client.destroy();
				resolve();
			}, 1_000);
			live.client.once("close", () => {
				clearTimeout(timer);
				resolve();
			});
			live.client.end();
		});
	}

	private connect(): Promise<LiveConnection> {
		this.connecting ??= this.login().finally(() => {
			this.connecting = undefined;
		});
		return this.connecting;
	}

	private login(): Promise<LiveConnection> {
		const { settings } = this;
		return new Promise<LiveConnection>((resolve, reject) => {
			const client = new Client();
			let hostKeyRefusal: SshError | undefined;
			let settled = false;
			const fail = (error: SshError) => {
				if (settled) return;
				settled = true;
				clearTimeout(deadline);
				client.destroy();
				reject(error);
			};
			const deadline = setTimeout(() => {
				fail(
					new SshError(
						"timeout",
						`Could not connect to ${this.label}: no completed SSH login within ${CONNECT_TIMEOUT_MS / 1000} s. Check the host, the port and the network.`,
					),
				);
			}, CONNECT_TIMEOUT_MS);
			client.once("ready", () => {
				if (settled) return;
				settled = true;
				clearTimeout(deadline);
				const live = this.adopt(client);
				resolve(live);
			});
			client.on("error", (error: Error & { level?: string; code?: string }) => {
				if (!settled) fail(hostKeyRefusal ?? this.classify(error));
			});
			client.once("close", () => {
				if (!settled)
					fail(
						hostKeyRefusal ?? new SshError("connection_failed", `${this.label} closed the connection during login.`),
					);
			});
			const config: ConnectConfig = {
				host: settings.host,
				port: settings.port,
				username: settings.username,
				...credentialsOf(settings),
				agentForward: false,
				readyTimeout: CONNECT_TIMEOUT_MS,
				keepaliveInterval: KEEPALIVE_INTERVAL_MS,
				keepaliveCountMax: 3,
				hostVerifier: (key: Buffer) => {
					hostKeyRefusal = settings.hostKey.verify(key);
					return hostKeyRefusal === undefined;
				},
			};
			try {
				client.connect(config);
				// Each SFTP request is a small packet waiting for its answer: Nagle's algorithm would hold it back
				// for the peer's delayed acknowledgement (about 40 ms a request).
				client.setNoDelay(true);
			} catch (error) {
				fail(
					new SshError("invalid_options", `Cannot use the SSH credentials: ${(error as Error).message}`, {
						cause: error,
					}),
				);
			}
		});
	}

	/** Watches a fresh client so that its loss is noticed, and gives it a lazily opened SFTP session. */
	private adopt(client: Client): LiveConnection {
		let sftpOpening: Promise<SFTPWrapper> | undefined;
		const live: LiveConnection = {
			client,
			sftp: () => {
				sftpOpening ??= new Promise<SFTPWrapper>((resolve, reject) => {
					client.sftp((error, sftp) => {
						if (error) {
							sftpOpening = undefined;
							reject(this.sftpError(error));
							return;
						}
						sftp.once("close", () => {
							sftpOpening = undefined;
						});
						resolve(sftp);
					});
				});
				return sftpOpening;
			},
		};
		const lost = (reason: string) => {
			if (this.live !== live) return;
			this.live = undefined;
			this.lostReason = reason;
		};
		client.on("error", (error: Error) => lost(error.message));
		client.once("end", () => lost("the server ended it"));
		client.once("close", () => lost("the connection closed"));
		this.live = live;
		this.lostReason = undefined;
		return live;
	}

	/** ssh2 says only "Unable to start subsystem: sftp" when the host's sshd has no SFTP subsystem. */
	private sftpError(error: Error): Error {
		if (!/unable to start subsystem/i.test(error.message)) return error;
		return new SshError(
			"sftp_unavailable",
			`${this.label} does not offer SFTP (${error.message}), which Gantry needs to read and write files there. ` +
				'Enable it in the host\'s sshd_config (a line such as "Subsystem sftp internal-sftp" or the path of ' +
				"sftp-server), then reload sshd.",
			{ cause: error },
		);
	}

	private classify(error: Error & { level?: string; code?: string }): SshError {
		const { host, port, username } = this.settings;
		if (error.level === "client-authentication") {
			return new SshError(
				"authentication_failed",
				`${this.label} refused the login of ${username}: none of the offered credentials was accepted. Check the key ` +
					"(-i KEYFILE / privateKey), the password or the agent, and the server's authorized_keys.",
				{ cause: error },
			);
		}
		if (error.level === "client-timeout") {
			return new SshError("timeout", `${this.label} did not complete the SSH handshake in time.`, { cause: error });
		}
		const reason =
			error.code === "ECONNREFUSED"
				? `connection refused: nothing listens on ${host} port ${port}`
				: error.code === "ENOTFOUND" || error.code === "EAI_AGAIN"
					? `the host name ${host} is not known`
					: error.code === "ETIMEDOUT" || error.code === "EHOSTUNREACH" || error.code === "ENETUNREACH"
						? `the host ${host} cannot be reached (${error.code})`
						: error.message;
		return new SshError("connection_failed", `Could not connect to ${this.label}: ${reason}.`, { cause: error });
	}
}
