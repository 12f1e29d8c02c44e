import { withoutUndefined } from "@gantry/ai";
import type { SshWorkspace } from "@gantry/ssh";
import type { CliOptions } from "../args.js";

/**
 * The SSH workspace a run acts on: `--ssh` (or `GANTRY_SSH`) with `-i` and `--cwd` as the folder on the
 * host; undefined for a local run. The connection is made before the session, so a wrong key, port or
 * host key stops the run at once with a `ssh_failed` error.
 */
export async function openRemoteWorkspace(
	options: CliOptions,
	env: Readonly<Record<string, string | undefined>>,
): Promise<SshWorkspace | undefined> {
	const target = options.ssh ?? (env.GANTRY_SSH || undefined);
	if (target === undefined) return undefined;
	// @gantry/ssh (and ssh2) load only for remote runs.
	const { openSshWorkspace } = await import("./open-ssh-workspace.js");
	return openSshWorkspace(withoutUndefined({ target, identity: options.identity, cwd: options.cwd, env }));
}
