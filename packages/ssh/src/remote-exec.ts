import type { Client, ClientChannel } from "ssh2";

/** How a remote command ended. */
export interface RemoteExit {
	exitCode: number | null;
	signal?: string;
	/** The channel closed without an exit status: the connection (or the server) went away. */
	lost?: boolean;
}

/** An exec channel and how it ended. */
export interface OpenedExec {
	channel: ClientChannel;
	/** Resolves when the exit status arrived (output may still follow, from processes left in the background). */
	exitReported: Promise<void>;
	/** Resolves with the exit status once the channel closed. */
	exited: Promise<RemoteExit>;
}

/**
 * Opens an exec channel running `command` (read by the login shell of the remote user), standard input
 * closed. ssh2 may deliver the exit status in the same parse as the channel's opening, before any
 * promise continuation runs: the exit listener is attached right in ssh2's callback, and output waits
 * in the paused channel streams until read.
 */
export function openExec(client: Client, command: string): Promise<OpenedExec> {
	return new Promise((resolve, reject) => {
		try {
			client.exec(command, (error, channel) => {
				if (error) {
					reject(error);
					return;
				}
				const exitReported = new Promise<void>((reported) => channel.once("exit", () => reported()));
				const exited = channelExit(channel);
				channel.end();
				resolve({ channel, exitReported, exited });
			});
		} catch (error) {
			// ssh2 throws synchronously when the connection is already gone.
			reject(error);
		}
	});
}

function channelExit(channel: ClientChannel): Promise<RemoteExit> {
	return new Promise((resolve) => {
		let exit: RemoteExit = { exitCode: null, lost: true };
		channel.once("exit", (code: number | null, signal?: string) => {
			exit = typeof code === "number" ? { exitCode: code } : { exitCode: null, signal: signal ?? "SIGKILL" };
		});
		channel.once("close", () => resolve(exit));
	});
}

/** What `execCollect` returns. */
export interface CollectedExec extends RemoteExit {
	stdout: string;
	stderr: string;
}

/** Runs a short command and collects its output as text. */
export async function execCollect(client: Client, command: string): Promise<CollectedExec> {
	const { channel, exited } = await openExec(client, command);
	const stdout: Buffer[] = [];
	const stderr: Buffer[] = [];
	channel.on("data", (chunk: Buffer) => stdout.push(chunk));
	channel.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
	const exit = await exited;
	if (exit.lost) throw new Error("The connection closed before the remote command finished.");
	return { ...exit, stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8") };
}
