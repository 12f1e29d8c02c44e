import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { withoutUndefined } from "@gantry/ai";
import { createSshWorkspace, type SshWorkspace } from "@gantry/ssh";
import { CliError, usageError } from "../errors.js";
import { parseSshTarget } from "./ssh-target.js";

/** The keys ssh itself tries when no `-i` is given, in its order. */
const DEFAULT_KEYS = ["id_ed25519", "id_ecdsa", "id_rsa"];

/** What `--ssh`, `GANTRY_SSH`, `-i` and `--cwd` say. */
export interface RemoteRequest {
	/** `user@host[:port]`. */
	target: string;
	/** `-i KEYFILE`. */
	identity?: string;
	/** `--cwd`: the folder on the host (default: the home folder). */
	cwd?: string;
	env: Readonly<Record<string, string | undefined>>;
}

/**
 * Connects to the host of `--ssh` (host key checked against ~/.ssh/known_hosts): with the `-i` key, or
 * else the agent of `SSH_AUTH_SOCK` and the first of ~/.ssh/id_ed25519, id_ecdsa, id_rsa. Throws a
 * `ssh_failed` CliError naming the cause (and a usage error for a malformed target or a missing key file).
 */
export async function openSshWorkspace(request: RemoteRequest): Promise<SshWorkspace> {
	const target = parseSshTarget(request.target);
	let privateKey: Buffer | undefined;
	if (request.identity !== undefined) {
		const path = resolve(request.identity);
		if (!existsSync(path)) throw usageError(`-i ${request.identity}: no such key file`);
		privateKey = readFileSync(path);
	} else {
		const home = request.env.HOME;
		const found = home
			? DEFAULT_KEYS.map((name) => join(home, ".ssh", name)).find((path) => existsSync(path))
			: undefined;
		if (found) privateKey = readFileSync(found);
	}
	const agent = request.env.SSH_AUTH_SOCK || undefined;
	if (!privateKey && !agent) {
		throw usageError(`--ssh ${request.target}: no key: pass -i KEYFILE, or run an ssh-agent (SSH_AUTH_SOCK)`);
	}
	try {
		return await createSshWorkspace({ ...target, ...withoutUndefined({ privateKey, agent }), cwd: request.cwd ?? "~" });
	} catch (error) {
		throw new CliError("ssh_failed", `--ssh ${request.target}: ${(error as Error).message}`, { cause: error });
	}
}
